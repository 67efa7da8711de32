"""installer/ground/atomic.py, the one way ext replaces a file: whole or not at all, made
durable (the file and its folder fsynced), never written through a link planted among ext's
own files."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from installer.agent.recorder import write_copy
from installer.agent.sessions import write_session_record
from installer.ground import atomic


@pytest.fixture
def synced(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The inodes fsync was asked to make durable."""
    inodes: set[int] = set()
    real = os.fsync

    def fsync(fd: int) -> None:
        inodes.add(os.fstat(fd).st_ino)
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return inodes


def test_own_file_is_replaced_whole_0600_and_made_durable(tmp_path: Path, synced: set[int]) -> None:
    path = tmp_path / "own" / "record.json"
    path.parent.mkdir()
    path.write_text("old\n")
    atomic.replace_own(path, b"new \x00\xff\n")
    assert path.read_bytes() == b"new \x00\xff\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert {path.stat().st_ino, path.parent.stat().st_ino} <= synced
    assert os.listdir(path.parent) == ["record.json"]


def test_a_link_planted_at_an_own_file_is_replaced_not_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    path = tmp_path / "own.json"
    path.symlink_to(victim)
    atomic.replace_own(path, "mine\n")
    assert not path.is_symlink() and path.read_text() == "mine\n"
    assert victim.read_text() == "keep me\n"


def test_a_failed_replace_leaves_the_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "own" / "own.json"
    path.parent.mkdir()
    path.write_text("before\n")

    def full(src: object, dst: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(src))

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(OSError, match="No space left"):  # as it came: the executor names it
        atomic.replace_own(path, "after\n")
    assert os.listdir(path.parent) == ["own.json"]
    assert path.read_text() == "before\n"


def test_a_killed_runs_temp_beside_an_own_file_is_cleared(tmp_path: Path) -> None:
    folder = tmp_path / "own"
    folder.mkdir()
    (folder / ".own.json.99999999-0123abcd.tmp").write_text("half")
    atomic.replace_own(folder / "own.json", "whole\n")
    assert os.listdir(folder) == ["own.json"]


def test_a_session_record_is_durable_before_a_guard_reads_it(
    tmp_path: Path, synced: set[int]
) -> None:
    # It was replaced without an fsync: a crash could leave an empty record that a guard
    # reads as no session.
    path = write_session_record(tmp_path, ["pi", "--x"])
    assert '"argv": ["pi", "--x"]' in path.read_text()
    assert {path.stat().st_ino, path.parent.stat().st_ino} <= synced


def test_the_recorders_copy_is_durable_and_0600(tmp_path: Path, synced: set[int]) -> None:
    path = tmp_path / ".extset" / "agent" / "ext-command.ts"
    write_copy(path, b"export default 1;\n")
    assert path.read_bytes() == b"export default 1;\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert {path.stat().st_ino, path.parent.stat().st_ino} <= synced
