"""pi's lock protocol on settings.json: a directory, waited for, taken over when stale."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from installer.ground.errors import ExtError
from installer.settings.lock import inspect_lock, lock_path, settings_lock
from installer.settings.seeds import apply_seeds
from installer.settings.store import update_settings

HOLDER = """
import sys
from pathlib import Path
from installer.settings.lock import settings_lock
with settings_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.readline()
print("released", flush=True)
"""


def _seed(**keys: Any) -> Any:
    return lambda data: apply_seeds(data, keys).settings


@pytest.fixture
def settings(tmp_path: Path) -> Path:
    agent = tmp_path / "agent"
    agent.mkdir()
    path = agent / "settings.json"
    path.write_text('{\n  "a": 1\n}\n')
    return path


def test_lock_is_a_directory_beside_the_file_and_gone_after(settings: Path) -> None:
    lock = settings.parent / "settings.json.lock"
    with settings_lock(settings) as held:
        assert held.path == lock
        assert lock.is_dir()
    assert not lock.exists()


def test_lock_of_a_symlink_sits_beside_the_link_as_pi_puts_it(settings: Path) -> None:
    link = settings.parent / "linked.json"
    link.symlink_to(settings)
    assert lock_path(link) == settings.parent / "linked.json.lock"


def test_stale_lock_dir_is_taken_over(settings: Path) -> None:
    lock = settings.parent / "settings.json.lock"
    lock.mkdir()
    past = time.time() - 11
    os.utime(lock, (past, past))
    update_settings(settings, _seed(b=2), wait=1)
    assert '"b": 2' in settings.read_text()
    assert not lock.exists()


def test_fresh_lock_dir_is_waited_for_then_refused_with_the_fix(settings: Path) -> None:
    lock = settings.parent / "settings.json.lock"
    lock.mkdir()
    with pytest.raises(ExtError) as err:
        update_settings(settings, _seed(b=2), wait=0.2)
    assert "stayed locked" in err.value.message
    assert err.value.fix and str(lock) in err.value.fix
    assert lock.is_dir()
    assert settings.read_text() == '{\n  "a": 1\n}\n'


@pytest.mark.parametrize("age", [0, 60])
def test_lock_file_is_an_error_and_left_alone(settings: Path, age: int) -> None:
    lock = settings.parent / "settings.json.lock"
    lock.write_text("")
    past = time.time() - age
    os.utime(lock, (past, past))
    with pytest.raises(ExtError) as err:
        update_settings(settings, _seed(b=2))
    assert "not a directory" in err.value.message
    assert err.value.fix and f"rm {lock}" in err.value.fix
    assert lock.is_file()
    assert settings.read_text() == '{\n  "a": 1\n}\n'


def test_lock_held_by_another_process_is_waited_for(settings: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(settings)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin and holder.stdout
    try:
        assert holder.stdout.readline() == "held\n"
        done = threading.Event()
        errors: list[BaseException] = []

        def write() -> None:
            try:
                update_settings(settings, _seed(b=2), wait=30)
            except BaseException as err:  # pragma: no cover - reported below
                errors.append(err)
            done.set()

        writer = threading.Thread(target=write)
        writer.start()
        # Bounded check that the writer is blocked; the hand-over below is what is synchronised.
        assert not done.wait(0.3)
        assert '"b"' not in settings.read_text()
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.stdout.readline() == "released\n"
        writer.join(30)
        assert done.is_set() and not errors
    finally:
        holder.kill()
        holder.wait()
    assert '"b": 2' in settings.read_text()
    assert not (settings.parent / "settings.json.lock").exists()


def test_held_lock_has_its_mtime_refreshed(settings: Path) -> None:
    with settings_lock(settings, refresh=0.02) as held:
        first = held.path.stat().st_mtime_ns
        deadline = time.monotonic() + 5
        while held.path.stat().st_mtime_ns == first and time.monotonic() < deadline:
            time.sleep(0.01)
        assert held.path.stat().st_mtime_ns != first
        held.ensure_held()


def remake_later(lock: Path) -> None:
    """mkdir the lock as another process does, at a later moment than ext's: ext4 gives the
    new folder the inode just freed, and a clock of coarse ticks (a kernel before 6.13) the
    same mtime in the same tick, which a real takeover (after the lock went stale) never has."""
    lock.mkdir()
    later = time.time_ns() + 10**9
    os.utime(lock, ns=(later, later))


def test_lock_taken_over_is_noticed_and_not_removed(settings: Path) -> None:
    lock = settings.parent / "settings.json.lock"
    with settings_lock(settings) as held:
        lock.rmdir()  # as another process does with a lock it judged stale
        remake_later(lock)
        with pytest.raises(ExtError, match="lost the lock"):
            held.ensure_held()
    assert lock.is_dir()


def _pi_writes_first(settings: Path, then: Any) -> Any:
    """A change that, on its first (unlocked) call, lets "pi" write the file meanwhile."""
    calls: list[int] = []

    def change(data: dict[str, Any]) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 1:
            settings.write_text('{\n  "a": 1,\n  "pi": true\n}\n')
        else:
            then()
        return {**data, "b": 2}

    return change


def test_a_write_by_pi_between_read_and_lock_is_kept(settings: Path) -> None:
    update_settings(settings, _pi_writes_first(settings, lambda: None))
    assert settings.read_text() == '{\n  "a": 1,\n  "pi": true,\n  "b": 2\n}\n'


def test_lock_taken_over_meanwhile_stops_the_write(settings: Path) -> None:
    lock = settings.parent / "settings.json.lock"

    def take_over() -> None:
        lock.rmdir()
        remake_later(lock)

    with pytest.raises(ExtError, match="lost the lock"):
        update_settings(settings, _pi_writes_first(settings, take_over))
    assert settings.read_text() == '{\n  "a": 1,\n  "pi": true\n}\n'
    assert lock.is_dir()
    assert [p.name for p in settings.parent.iterdir() if p.suffix == ".tmp"] == []


def test_inspect_lock_tells_doctor_what_is_there(settings: Path) -> None:
    lock = settings.parent / "settings.json.lock"
    assert inspect_lock(settings) == "free"
    with settings_lock(settings):
        assert inspect_lock(settings) == "held"
    lock.mkdir()
    past = time.time() - 11
    os.utime(lock, (past, past))
    assert inspect_lock(settings) == "stale"
    lock.rmdir()
    lock.write_text("")
    assert inspect_lock(settings) == "file"
