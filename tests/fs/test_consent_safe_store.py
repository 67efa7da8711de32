"""The store under `.extset/consent/`: moved from `hooks/` (which makes pi warn), and trusted
only when it is safe: the user's own, writable by no one else, never through a symlink."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.consent import commands
from installer.consent.store import store_path
from installer.ground.errors import ExtError
from tests.helpers import build_tree, snapshot

HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify done"}]}]}}


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    path = tmp_path / "agent"
    path.mkdir()
    return path


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "proj", {".claude/settings.json": json.dumps(HOOKS)})


def ext(tmp_path: Path, agent: Path, *args: str) -> tuple[int, str]:
    the_set = build_tree(tmp_path / "set", {"extensions/a.ts": "export default () => {};"})
    env = {"EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    argv = ["--set", str(the_set), "--agent-dir", str(agent), *args]
    done = CliRunner().invoke(app, argv, env=env)
    return done.exit_code, done.output


def approve(agent: Path, proj: Path) -> None:
    commands.approve(agent, proj, commands.describe_approval(agent, proj))


def legacy(agent: Path, proj: Path) -> bytes:
    """An approval as ext before the move kept it, in `<agent>/hooks/`."""
    approve(agent, proj)
    text = store_path(agent).read_bytes()
    (agent / "hooks").mkdir(mode=0o700)
    (agent / "hooks" / "project-approvals.json").write_bytes(text)
    (agent / "hooks" / "project-approvals.json").chmod(0o600)
    (agent / "hooks" / ".project-approvals.json.lock").write_bytes(b"")
    shutil.rmtree(agent / ".extset")
    return text


def test_the_store_lives_under_extset_and_no_hooks_folder_is_made(agent: Path, proj: Path) -> None:
    approve(agent, proj)
    assert store_path(agent) == agent / ".extset" / "consent" / "project-approvals.json"
    assert store_path(agent).is_file()
    assert not (agent / "hooks").exists()


def test_the_first_consent_command_moves_the_old_store_and_undo_puts_it_back(
    tmp_path: Path, agent: Path, proj: Path
) -> None:
    text = legacy(agent, proj)
    before = snapshot(agent)
    code, output = ext(tmp_path, agent, "consent", "check", str(proj))
    assert code == 0, output
    assert "Moved the approvals store" in output
    assert not (agent / "hooks").exists()
    assert store_path(agent).read_bytes() == text
    assert oct(store_path(agent).stat().st_mode & 0o777) == oct(0o600)
    assert oct(store_path(agent).parent.stat().st_mode & 0o777) == oct(0o700)

    code, output = ext(tmp_path, agent, "consent", "check", str(proj))
    assert code == 0 and "Moved" not in output  # once

    code, output = ext(tmp_path, agent, "undo", "--yes")
    assert code == 0, output
    assert (agent / "hooks" / "project-approvals.json").read_bytes() == text
    assert not store_path(agent).exists()
    after = snapshot(agent)
    ours = {k for k in after if k.startswith(".extset")} | {k for k in before if "lock" in k}
    assert {k: v for k, v in after.items() if k not in ours} == {
        k: v for k, v in before.items() if k not in ours
    }


def test_a_dry_run_leaves_the_old_store_where_it_is(
    tmp_path: Path, agent: Path, proj: Path
) -> None:
    legacy(agent, proj)
    before = snapshot(agent)

    code, output = ext(tmp_path, agent, "consent", "approve", str(proj), "--dry-run")

    assert code == 0, output
    assert snapshot(agent) == before  # a dry run writes nothing at all (DESIGN.md)
    assert "--dry-run" in output and "moves" in output  # and says what the real run will do


def test_a_hooks_folder_with_other_files_stays_and_doctor_names_it(
    tmp_path: Path, agent: Path, proj: Path
) -> None:
    text = legacy(agent, proj)
    (agent / "hooks" / "old-hook.ts").write_text("// mine\n")
    code, output = ext(tmp_path, agent, "consent", "list")
    assert code == 0, output
    assert store_path(agent).read_bytes() == text
    assert (agent / "hooks" / "old-hook.ts").read_text() == "// mine\n"
    assert not (agent / "hooks" / "project-approvals.json").exists()

    code, output = ext(tmp_path, agent, "--json", "doctor", "--check", "agent.hooks")
    [row] = [c for c in json.loads(output)["checks"] if c["id"] == "agent.hooks"]
    assert row["level"] == "warn"
    assert "pi warn" in row["message"] and "old-hook.ts" in row["message"]
    assert "mv " in row["fix"]


def test_doctor_names_an_old_store_and_the_command_that_moves_it(
    tmp_path: Path, agent: Path, proj: Path
) -> None:
    legacy(agent, proj)
    _, output = ext(tmp_path, agent, "--json", "doctor", "--check", "agent.hooks")
    [row] = [c for c in json.loads(output)["checks"] if c["id"] == "agent.hooks"]
    assert row["level"] == "warn" and "old approvals store" in row["message"]
    assert row["fix"].startswith("ext consent list")
    ext(tmp_path, agent, "consent", "list")
    _, output = ext(tmp_path, agent, "--json", "doctor", "--check", "agent.hooks")
    [row] = [c for c in json.loads(output)["checks"] if c["id"] == "agent.hooks"]
    assert row["level"] == "ok"


@pytest.mark.parametrize(
    ("what", "loosen"),
    [
        ("file 0666", lambda a: store_path(a).chmod(0o666)),
        ("file 0620", lambda a: store_path(a).chmod(0o620)),
        ("folder 0777", lambda a: store_path(a).parent.chmod(0o777)),
        ("folder 0770", lambda a: store_path(a).parent.chmod(0o770)),
    ],
)
def test_a_store_others_can_write_holds_no_approvals_and_is_not_written(
    agent: Path, proj: Path, tmp_path: Path, what: str, loosen: object
) -> None:
    approve(agent, proj)
    loosen(agent)  # type: ignore[operator]
    result = commands.check(agent, proj)
    assert result.status == "never-approved"
    assert any("writable by other users" in w for w in result.warnings)
    assert any("holds no approvals" in w for w in result.warnings)
    other = build_tree(tmp_path / "other", {".claude/settings.json": json.dumps(HOOKS)})
    before = snapshot(agent)
    with pytest.raises(ExtError) as caught:
        approve(agent, other)
    assert "nothing was written" in caught.value.message
    assert "chmod" in (caught.value.fix or "")
    assert snapshot(agent) == before


def test_an_unsafe_store_is_reported_with_its_fix(tmp_path: Path, agent: Path, proj: Path) -> None:
    # project-hooks tells pi's user "Run `ext consent list` for the fix": it must have one
    approve(agent, proj)
    store_path(agent).chmod(0o666)

    code, listed = ext(tmp_path, agent, "consent", "list")
    _, output = ext(tmp_path, agent, "--json", "doctor", "--check", "consent")

    assert code == 0 and "chmod 600" in listed
    [row] = [c for c in json.loads(output)["checks"] if c["id"] == "consent"]
    assert row["level"] == "warn" and "holds no approvals" in row["message"]
    assert "chmod 600" in row["fix"] and "chmod" not in row["message"]


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the store to another user")
def test_a_store_owned_by_another_user_holds_no_approvals(agent: Path, proj: Path) -> None:
    approve(agent, proj)
    os.chown(store_path(agent), 65534, 65534)
    result = commands.check(agent, proj)
    assert result.status == "never-approved"
    assert any("owned by another user" in w for w in result.warnings)


def test_a_symlinked_store_folder_is_never_written_through(
    agent: Path, proj: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o755)
    (elsewhere / "keep.jsonl").write_text("x\n")
    (agent / ".extset").mkdir()
    (agent / ".extset" / "consent").symlink_to(elsewhere)
    with pytest.raises(ExtError) as caught:
        approve(agent, proj)
    assert "symlink" in caught.value.message
    assert sorted(p.name for p in elsewhere.iterdir()) == ["keep.jsonl"]
    assert oct(elsewhere.stat().st_mode & 0o777) == oct(0o755)  # never chmodded


def test_a_symlinked_store_file_holds_no_approvals_and_its_target_is_untouched(
    agent: Path, proj: Path, tmp_path: Path
) -> None:
    approve(agent, proj)
    target = tmp_path / "forged.json"
    target.write_bytes(store_path(agent).read_bytes())
    target.chmod(0o600)
    store_path(agent).unlink()
    store_path(agent).symlink_to(target)
    assert commands.check(agent, proj).status == "never-approved"
    before = target.read_bytes()
    assert commands.revoke(agent, proj).revoked is None  # nothing trusted there to revoke
    with pytest.raises(ExtError):
        approve(agent, proj)
    assert target.read_bytes() == before
    assert store_path(agent).is_symlink()


def test_an_old_store_behind_a_symlink_is_neither_moved_nor_trusted(
    tmp_path: Path, agent: Path, proj: Path
) -> None:
    legacy(agent, proj)
    real = tmp_path / "real-hooks"
    (agent / "hooks").rename(real)
    (agent / "hooks").symlink_to(real)
    code, output = ext(tmp_path, agent, "consent", "check", str(proj))
    assert code == 3, output
    assert "symlink" in output
    assert sorted(p.name for p in real.iterdir()) == [
        ".project-approvals.json.lock",
        "project-approvals.json",
    ]
    assert not store_path(agent).exists()


def test_the_first_install_after_an_upgrade_moves_the_old_store_and_undo_takes_the_install_first(
    tmp_path: Path, agent: Path, proj: Path
) -> None:
    text = legacy(agent, proj)
    code, output = ext(tmp_path, agent, "install", "--dry-run")
    assert code == 0 and (agent / "hooks").is_dir()  # a dry run writes nothing
    code, output = ext(tmp_path, agent, "install", "--yes")
    assert code == 0, output
    assert "Moved the approvals store" in output
    assert not (agent / "hooks").exists()
    assert store_path(agent).read_bytes() == text
    assert (agent / "extensions" / "a.ts").is_symlink()

    code, output = ext(tmp_path, agent, "undo", "--yes")
    assert code == 0, output
    assert not (agent / "extensions" / "a.ts").exists()
    assert store_path(agent).read_bytes() == text  # the move is the run before


@pytest.mark.parametrize("dangling", [True, False], ids=["dangling link", "link to a copy"])
def test_undo_of_the_move_never_writes_through_a_link_planted_at_either_store(
    tmp_path: Path, agent: Path, proj: Path, dangling: bool
) -> None:
    """A link at the old store's place (or the new one's) is refused, not written through:
    a dangling link reads as "no file", which is what undo expects there."""
    text = legacy(agent, proj)
    assert ext(tmp_path, agent, "consent", "check", str(proj))[0] == 0  # moved
    outside = tmp_path / "outside" / "approvals.json"
    outside.parent.mkdir()
    if dangling:
        (agent / "hooks").mkdir()
        (agent / "hooks" / "project-approvals.json").symlink_to(outside)
    else:
        outside.write_bytes(text)
        store_path(agent).unlink()
        store_path(agent).symlink_to(outside)
    before = snapshot(agent)

    code, output = ext(tmp_path, agent, "undo", "--yes")

    assert code != 0
    assert "symlink" in output and "project-approvals.json" in output
    assert outside.exists() is not dangling
    assert not dangling or not os.path.lexists(outside)
    if not dangling:
        assert outside.read_bytes() == text
    assert snapshot(agent) == before


@pytest.mark.parametrize(
    "place",
    [".extset/consent/project-approvals.json", "hooks/project-approvals.json"],
    ids=["store", "old store"],
)
def test_a_fifo_at_a_store_is_refused_not_waited_on(
    tmp_path: Path, agent: Path, proj: Path, place: str
) -> None:
    """Opening a FIFO waits for a writer that never comes: `consent check` hung forever."""
    (agent / place).parent.mkdir(parents=True)
    os.mkfifo(agent / place)
    code, output = ext(tmp_path, agent, "consent", "check", str(proj))
    assert code in (1, 3), output  # nothing approved, and it ends
    assert "project-approvals.json" in output


def test_a_fifo_for_a_projects_hook_file_is_refused_not_waited_on(
    tmp_path: Path, agent: Path
) -> None:
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True)
    os.mkfifo(proj / ".claude" / "settings.json")
    code, output = ext(tmp_path, agent, "consent", "check", str(proj))
    assert code != 0 and "settings.json" in output and "not a regular file" in output
