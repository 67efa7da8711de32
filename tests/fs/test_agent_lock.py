"""ext's lock on an agent dir: one ext at a time, shared with filelock (earlier ext versions),
freed when its holder dies, and every refusal says what to do."""

from __future__ import annotations

import errno
import fcntl
import stat
from pathlib import Path

import filelock
import pytest

from installer.engine import lock as lock_module
from installer.engine.lock import agent_lock
from installer.ground import notices
from installer.ground.errors import ExtError
from tests.helpers import holding_lock


def _busy(agent: Path) -> ExtError:
    with pytest.raises(ExtError) as err, agent_lock(agent, timeout=0):
        pass
    return err.value


def test_a_second_ext_is_refused_with_what_to_do(tmp_path: Path) -> None:
    with agent_lock(tmp_path):
        err = _busy(tmp_path)
    assert err.message == (
        f"another ext is working on {tmp_path} and held its lock for 0 s; nothing was written"
    )
    assert err.fix == "wait for it to finish, then run this again"
    with agent_lock(tmp_path, timeout=0):  # released on the way out
        pass


def test_it_excludes_filelock_both_ways(tmp_path: Path) -> None:
    """An earlier ext took this lock with filelock: the two must still exclude each other."""
    path = tmp_path / ".extset" / "lock"
    with agent_lock(tmp_path), pytest.raises(filelock.Timeout):
        filelock.FileLock(path).acquire(timeout=0)
    with filelock.FileLock(path):
        _busy(tmp_path)


def test_a_holder_that_dies_frees_it(tmp_path: Path) -> None:
    holder = holding_lock(tmp_path)
    try:
        _busy(tmp_path)
        holder.kill()  # no cleanup runs: the kernel drops its flock
        holder.wait(timeout=30)
        with agent_lock(tmp_path, timeout=0):
            pass
    finally:
        holder.kill()
        holder.wait(timeout=30)


def test_a_long_wait_is_said_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    monkeypatch.setattr(notices, "_listeners", [said.append])
    monkeypatch.setattr(lock_module, "NOTE_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(lock_module, "POLL_SECONDS", 0.01)
    with agent_lock(tmp_path), pytest.raises(ExtError), agent_lock(tmp_path, timeout=0.5):
        pass
    assert said == [
        f"waiting for another ext working on {tmp_path} (it holds {tmp_path}/.extset/lock)"
    ]


def test_its_file_and_folder_are_private(tmp_path: Path) -> None:
    with agent_lock(tmp_path):
        pass
    assert stat.S_IMODE((tmp_path / ".extset").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / ".extset" / "lock").stat().st_mode) == 0o600


def test_a_link_in_its_place_is_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("not ext's\n")
    (tmp_path / "agent" / ".extset").mkdir(parents=True)
    (tmp_path / "agent" / ".extset" / "lock").symlink_to(elsewhere)
    with pytest.raises(ExtError) as err, agent_lock(tmp_path / "agent"):
        pass
    assert "cannot open ext's lock" in err.value.message
    assert err.value.fix.startswith("make it a plain file you can write, or remove it: rm ")
    assert elsewhere.read_text() == "not ext's\n"


@pytest.fixture
def no_flock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system without flock (ENOSYS), for ext and filelock alike."""

    def flock(fd: int, operation: int) -> None:
        raise OSError(errno.ENOSYS, "Function not implemented")

    monkeypatch.setattr(fcntl, "flock", flock)


@pytest.mark.usefixtures("no_flock")
@pytest.mark.filterwarnings("ignore:flock not supported:UserWarning")
def test_without_flock_filelock_takes_it_and_still_excludes(tmp_path: Path) -> None:
    with agent_lock(tmp_path):
        _busy(tmp_path)
    with agent_lock(tmp_path, timeout=0):  # nothing of ext's left in the way
        pass
    assert not (tmp_path / ".extset" / "lock").exists()


def test_a_lock_the_file_system_refuses_says_where_to_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def flock(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", flock)
    with pytest.raises(ExtError) as err, agent_lock(tmp_path):
        pass
    assert err.value.message == f"cannot lock {tmp_path}/.extset/lock: No locks available"
    assert err.value.fix == "put the agent dir on a local file system, or pass --agent-dir to one"


def test_the_refusal_names_the_run_that_holds_the_lock(tmp_path: Path) -> None:
    """A trial (helper-29): a second install waited 30 s, then said only "another ext"; the
    journal of the run at work names its command and pid, as undo's refusal does."""
    journal = tmp_path / ".extset" / "journal"
    journal.mkdir(parents=True)
    with holding_lock(tmp_path) as holder:
        (journal / f"20261205T090000.000000-{holder.pid}-install.jsonl").write_text(
            '{"journal": 1, "command": "install", "started": "2026-12-05T09:00:00.000000"}\n'
        )
        err = _busy(tmp_path)
        holder.communicate("")
    assert err.message.startswith(
        f"`ext install` (pid {holder.pid}, started 2026-12-05T09:00:00) is working on {tmp_path}"
    )
