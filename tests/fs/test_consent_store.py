"""The approvals store on disk: modes, corrupt stores, failed writes, concurrent writers."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from installer.consent import commands
from installer.consent.results import ApproveResult
from installer.consent.store import store_path
from installer.ground.errors import ExitCode, ExtError
from tests.helpers import build_tree, snapshot

REPO = Path(__file__).resolve().parents[2]
HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify done"}]}]}}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    path = tmp_path / "agent"
    path.mkdir()
    return path


def project(root: Path, name: str, command: str = "notify done") -> Path:
    hooks = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}}
    return build_tree(root / name, {".claude/settings.json": json.dumps(hooks)})


def approve(agent: Path, proj: Path) -> ApproveResult:
    return commands.approve(agent, proj, commands.describe_approval(agent, proj))


@pytest.fixture
def open_umask() -> Iterator[None]:
    old = os.umask(0)
    yield
    os.umask(old)


@pytest.mark.usefixtures("open_umask")
def test_a_new_store_is_0600_in_a_0700_folder_whatever_the_umask(
    agent: Path, tmp_path: Path
) -> None:
    approve(agent, project(tmp_path, "p"))
    path = store_path(agent)
    assert mode(path.parent) == 0o700
    assert mode(path) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == [
        ".project-approvals.json.lock",
        "project-approvals.json",
    ]


def test_a_0644_store_is_reported_then_fixed_on_the_next_write(agent: Path, tmp_path: Path) -> None:
    first = project(tmp_path, "a")
    approve(agent, first)
    path = store_path(agent)
    path.chmod(0o644)
    path.parent.chmod(0o755)

    warned = commands.check(agent, first).warnings
    assert any(str(path) in w and "0644" in w and "next write" in w for w in warned)
    assert any(str(path.parent) in w and "0755" in w for w in warned)
    assert commands.list_approvals(agent).warnings == warned
    assert mode(path) == 0o644  # reading reports; it does not write

    result = approve(agent, project(tmp_path, "b"))
    assert mode(path) == 0o600
    assert mode(path.parent) == 0o700
    assert any("0644" in w and "now 0600" in w for w in result.warnings)
    assert commands.check(agent, first).warnings == ()


CORRUPT = [
    b"{not json",
    b'{"version": 2, "approvals": {}}',
    b'{"version": 1, "approvals": []}',
    b'{"version": 1, "approvals": {"/p": {"sha256": "x"}}}',
    b"\xff\xfe not utf-8",
    b"",
]


@pytest.mark.parametrize("content", CORRUPT)
def test_a_corrupt_store_stops_every_command_and_is_left_byte_for_byte(
    agent: Path, tmp_path: Path, content: bytes
) -> None:
    proj = project(tmp_path, "p")
    path = store_path(agent)
    build_tree(agent, {".extset/consent/project-approvals.json": content})
    before = snapshot(agent)
    for run in (
        lambda: commands.check(agent, proj),
        lambda: commands.describe_approval(agent, proj),
        lambda: approve(agent, proj),
        lambda: commands.revoke(agent, proj),
        lambda: commands.list_approvals(agent),
    ):
        with pytest.raises(ExtError) as caught:
            run()
        assert caught.value.exit_code == ExitCode.FAILED
        assert str(path) in caught.value.message
        assert caught.value.fix is not None and f"mv {path} {path}.bad" in caught.value.fix
    after = snapshot(agent)
    # the lock may be taken, nothing else
    after.pop(".extset/consent/.project-approvals.json.lock", None)
    assert after == before


def test_a_store_that_cannot_be_read_is_not_written_over(agent: Path, tmp_path: Path) -> None:
    build_tree(agent, {".extset/consent/project-approvals.json/inside": "x"})
    with pytest.raises(ExtError, match="unreadable"):
        approve(agent, project(tmp_path, "p"))
    assert (store_path(agent) / "inside").read_text() == "x"


def test_a_failed_replace_leaves_the_store_as_it_was_and_no_temp_file(
    agent: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    approve(agent, project(tmp_path, "a"))
    before = snapshot(agent)

    def refuse(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(ExtError, match="No space left on device") as caught:
        approve(agent, project(tmp_path, "b"))
    assert caught.value.exit_code == ExitCode.FAILED
    assert snapshot(agent) == before


CHILD = """
import sys
from pathlib import Path
from installer.consent import commands
agent, project = Path(sys.argv[1]), Path(sys.argv[2])
preview = commands.describe_approval(agent, project)
print("ready", flush=True)
sys.stdin.readline()
commands.approve(agent, project, preview)
print("done", flush=True)
"""


@pytest.mark.parametrize("round_", range(3))
def test_concurrent_approvals_of_different_projects_all_land(tmp_path: Path, round_: int) -> None:
    agent = tmp_path / f"agent{round_}"
    agent.mkdir()
    projects = [project(tmp_path, f"p{i}") for i in range(4)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(agent), str(p)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for p in projects
    ]
    # A barrier through pipes: every child has read the store and holds its
    # preview before any of them is let go to write.
    for child in children:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.close()
    for child in children:
        assert child.wait(timeout=60) == 0
        assert child.stdout is not None and child.stdout.read() == "done\n"
    stored = json.loads(store_path(agent).read_text())["approvals"]
    assert sorted(stored) == sorted(os.path.realpath(p) for p in projects)
    assert all(commands.check(agent, p).status == "approved" for p in projects)
