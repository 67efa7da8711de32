"""`ext consent` end to end: the installed ext as a subprocess, and at a real prompt (pexpect)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import EXT, Run

pytestmark = pytest.mark.e2e

GUARD = "./scripts/guard.sh"


def write_settings(project: Path, guard: str = GUARD) -> None:
    """A Claude Code settings file with two hooks and a key that is not a hook."""
    settings = {
        "model": "opus",
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": guard, "timeout": 5}]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        },
    }
    (project / ".claude").mkdir(parents=True, exist_ok=True)
    (project / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2) + "\n")


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    folder = tmp_path / "agent"
    folder.mkdir()
    return folder


@pytest.fixture
def where(tmp_path: Path, agent: Path) -> list[str]:
    """Global options: a named agent dir, and a set of our own (consent needs no set's content)."""
    set_root = tmp_path / "set"
    (set_root / "extensions").mkdir(parents=True)
    return ["--agent-dir", str(agent), "--set", str(set_root)]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "shop"
    folder.mkdir()
    write_settings(folder)
    return folder


def store_of(agent: Path) -> Path:
    return agent / ".extset" / "consent" / "project-approvals.json"


def as_json(proc: Any) -> dict[str, Any]:
    assert proc.stderr == "", proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def test_approve_check_edit_diff_revoke(ext: Run, where: list[str], project: Path) -> None:
    never = ext(*where, "consent", "check", str(project))
    assert never.returncode == 3
    assert "never been approved" in never.stdout

    first = ext(*where, "consent", "approve", "--yes", str(project))
    assert first.returncode == 0, first.stderr
    assert 'PreToolUse  matcher "Bash"' in first.stdout
    assert f"$ {GUARD}" in first.stdout
    assert "$ notify-send done" in first.stdout
    assert "Approved 2 hooks" in first.stdout

    assert ext(*where, "consent", "check", str(project)).returncode == 0

    write_settings(project, guard=f"{GUARD} --strict")
    changed = ext(*where, "consent", "check", str(project))
    assert changed.returncode == 3
    assert "changed since the approval on" in changed.stdout

    second = ext(*where, "consent", "approve", "--yes", str(project))
    assert second.returncode == 0, second.stderr
    assert "Changed since the approval on" in second.stdout
    assert f'-            "command": "{GUARD}",' in second.stdout
    assert f'+            "command": "{GUARD} --strict",' in second.stdout

    assert ext(*where, "consent", "check", str(project)).returncode == 0

    revoked = ext(*where, "consent", "revoke", "--yes", str(project))
    assert revoked.returncode == 0
    assert "Revoked the approval" in revoked.stdout

    after = ext(*where, "consent", "check", str(project))
    assert after.returncode == 3
    assert "never been approved" in after.stdout


def test_a_change_outside_hooks_keeps_the_approval(
    ext: Run, where: list[str], project: Path
) -> None:
    ext(*where, "consent", "approve", "--yes", str(project), check=True)
    path = project / ".claude" / "settings.json"
    settings = json.loads(path.read_text())
    settings["model"] = "sonnet"
    path.write_text(json.dumps(settings) + "\n")  # other key, other formatting
    assert ext(*where, "consent", "check", str(project)).returncode == 0


def test_dir_defaults_to_the_cwd(ext: Run, where: list[str], project: Path) -> None:
    ext(*where, "consent", "approve", "--yes", cwd=project, check=True)
    check = ext(*where, "consent", "check", cwd=project)
    assert check.returncode == 0
    assert str(project) in check.stdout


def test_no_tty_and_no_yes_is_refused_and_records_nothing(
    ext: Run, where: list[str], agent: Path, project: Path
) -> None:
    proc = ext(*where, "consent", "approve", str(project))
    assert proc.returncode == 3
    assert "--yes" in proc.stderr
    assert f"$ {GUARD}" in proc.stdout, "the hooks are shown before the refusal"
    assert not store_of(agent).exists()


def test_a_project_without_hooks_has_nothing_to_approve(
    ext: Run, where: list[str], agent: Path, tmp_path: Path
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    check = ext(*where, "consent", "check", str(plain))
    assert check.returncode == 0
    assert "nothing to approve" in check.stdout
    assert ext(*where, "consent", "approve", str(plain)).returncode == 0
    assert not store_of(agent).exists()


def test_json_shapes(ext: Run, where: list[str], project: Path) -> None:
    key = str(project.resolve())
    check = as_json(ext(*where, "--json", "consent", "check", str(project)))
    assert check["command"] == "consent check"
    assert check["status"] == "never-approved"
    assert check["ok"] is False
    assert check["sha256"].startswith("sha256:")

    preview = as_json(ext(*where, "--json", "consent", "approve", "--dry-run", str(project)))
    assert preview["dry_run"] is True
    assert preview["status"] == "new"
    assert [(h["event"], h["matcher"], h["command"]) for h in preview["hooks"]] == [
        ("PreToolUse", "Bash", GUARD),
        ("Stop", None, "notify-send done"),
    ]

    approve = as_json(ext(*where, "--json", "consent", "approve", "--yes", str(project)))
    assert approve["command"] == "consent approve"
    assert approve["changed"] is True
    assert approve["dry_run"] is False
    assert approve["actions"] == [{"action": "approve", "path": key, "detail": check["sha256"]}]
    assert approve["sources"] == [".claude/settings.json"]

    again = as_json(ext(*where, "--json", "consent", "approve", "--yes", str(project)))
    assert again["changed"] is False
    assert again["actions"] == []

    listing = as_json(ext(*where, "--json", "consent", "list"))
    assert listing["command"] == "consent list"
    assert [(a["project"], a["state"], a["sha256"]) for a in listing["approvals"]] == [
        (key, "current", check["sha256"])
    ]

    revoke = as_json(ext(*where, "--json", "consent", "revoke", "--yes", str(project)))
    assert revoke["changed"] is True
    assert revoke["revoked_sha256"] == check["sha256"]


def test_json_refusal_keeps_stdout_for_data(ext: Run, where: list[str], project: Path) -> None:
    proc = ext(*where, "--json", "consent", "approve", str(project))
    assert proc.returncode == 3
    assert json.loads(proc.stdout)["exit_code"] == 3
    assert f"$ {GUARD}" in proc.stderr, "under --json the hooks are shown on stderr"


def test_errors_map_to_exit_codes(
    ext: Run, where: list[str], agent: Path, project: Path, tmp_path: Path
) -> None:
    assert ext(*where, "consent", "check", str(tmp_path / "nowhere")).returncode == 2
    missing = ["--agent-dir", str(tmp_path / "no-agent"), *where[2:]]
    assert ext(*missing, "consent", "list").returncode == 4

    store_of(agent).parent.mkdir(parents=True)
    store_of(agent).write_text("{not json")
    proc = ext(*where, "consent", "approve", "--yes", str(project))
    assert proc.returncode == 1
    assert str(store_of(agent)) in proc.stderr
    assert store_of(agent).read_text() == "{not json"


# At a real prompt: pexpect gives ext a pseudo-terminal for stdin.


def prompt(
    e2e_env: dict[str, str],
    where: list[str],
    project: Path,
    answer: str,
    verb: str = "approve",
    question: str = r"Allow these 2 hooks to run\? \[y/N\] ",
) -> Any:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(
        str(EXT),
        [*where, "consent", verb, str(project)],
        env=e2e_env,
        cwd=str(project),
        encoding="utf-8",
        timeout=60,
    )
    child.expect(question)
    shown = child.before
    child.sendline(answer)
    child.expect(pexpect.EOF)
    child.close()
    return shown, child.before, child.exitstatus


def test_no_at_the_prompt_records_nothing(
    e2e_env: dict[str, str], where: list[str], agent: Path, project: Path
) -> None:
    shown, after, status = prompt(e2e_env, where, project, "n")
    assert f"$ {GUARD}" in shown
    assert status == 3
    assert "declined" in after
    assert not store_of(agent).exists()


def test_no_at_the_prompt_leaves_the_store_byte_identical(
    ext: Run, e2e_env: dict[str, str], where: list[str], agent: Path, project: Path
) -> None:
    ext(*where, "consent", "approve", "--yes", str(project), check=True)
    write_settings(project, guard=f"{GUARD} --strict")
    before = store_of(agent).read_bytes()
    shown, _after, status = prompt(e2e_env, where, project, "n")
    assert "Changed since the approval on" in shown
    assert status == 3
    assert store_of(agent).read_bytes() == before
    assert ext(*where, "consent", "check", str(project)).returncode == 3


def test_yes_at_the_prompt_approves(
    ext: Run, e2e_env: dict[str, str], where: list[str], project: Path
) -> None:
    _shown, after, status = prompt(e2e_env, where, project, "y")
    assert status == 0
    assert "Approved 2 hooks" in after
    assert ext(*where, "consent", "check", str(project)).returncode == 0


def test_revoke_asks_at_the_prompt_and_no_keeps_the_approval(
    ext: Run, e2e_env: dict[str, str], where: list[str], agent: Path, project: Path
) -> None:
    ext(*where, "consent", "approve", "--yes", str(project), check=True)
    before = store_of(agent).read_bytes()
    question = r"Revoke the approval of the hooks in .*shop \(\w{12}, approved .*\)\? \[y/N\] "

    _shown, after, status = prompt(e2e_env, where, project, "n", "revoke", question)
    assert (status, store_of(agent).read_bytes()) == (3, before)
    assert "declined; nothing was revoked" in after
    _shown, after, status = prompt(e2e_env, where, project, "y", "revoke", question)
    assert status == 0 and "Revoked the approval" in after
    assert ext(*where, "consent", "check", str(project)).returncode == 3
