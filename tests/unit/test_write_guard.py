"""The write guard of tests/conftest.py: what it refuses, what it lets through.

Each test installs a guard of its own whose only root is the test's tmp_path, and aims at a
sibling folder: inside pytest's temp root (so nothing real is ever at risk) but outside it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.write_guard import Guard, OutsideWrite


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path.parent / f"{tmp_path.name}-outside"
    folder.mkdir()
    (folder / "file").write_text("before\n")
    return folder


@pytest.fixture
def guard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, outside: Path) -> Guard:
    """Installed after `outside` is made (the session's guard allows that one)."""
    g = Guard([str(tmp_path)])
    g.install(monkeypatch)
    return g


WRITES: dict[str, Callable[[Path], object]] = {
    "write_text": lambda p: (p / "new").write_text("x"),
    "open w": lambda p: open(p / "file", "w"),  # noqa: SIM115 - never opened
    "open a": lambda p: open(p / "file", "a"),  # noqa: SIM115
    "open r+": lambda p: open(p / "file", "r+"),  # noqa: SIM115
    "os.open": lambda p: os.open(p / "new", os.O_WRONLY | os.O_CREAT, 0o600),
    "touch": lambda p: (p / "new").touch(),
    "mkdir": lambda p: (p / "sub").mkdir(),
    "makedirs": lambda p: os.makedirs(p / "a" / "b"),
    "symlink": lambda p: (p / "link").symlink_to("file"),
    "unlink": lambda p: (p / "file").unlink(),
    "chmod": lambda p: (p / "file").chmod(0o600),
    "rename": lambda p: os.rename(p / "file", p / "moved"),
    "rmtree": shutil.rmtree,
    "copy": lambda p: shutil.copy(p / "file", p / "copy"),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_a_write_outside_is_refused_and_leaves_the_folder_as_it_was(
    guard: Guard, outside: Path, write: Callable[[Path], object]
) -> None:
    with pytest.raises(OutsideWrite):
        write(outside)
    assert sorted(os.listdir(outside)) == ["file"]
    assert (outside / "file").read_text() == "before\n"
    guard.seen.clear()


def test_a_write_the_code_catches_is_still_remembered(guard: Guard, outside: Path) -> None:
    with contextlib.suppress(Exception):  # as careless code would
        (outside / "new").write_text("x")
    assert [f"{outside}/new" in s for s in guard.seen] == [True]
    guard.seen.clear()


def test_a_path_relative_to_a_folder_descriptor_is_judged_where_it_lands(
    guard: Guard, outside: Path
) -> None:
    fd = os.open(outside, os.O_RDONLY)
    try:
        with pytest.raises(OutsideWrite):
            os.unlink("file", dir_fd=fd)
    finally:
        os.close(fd)
    assert (outside / "file").exists()
    guard.seen.clear()


def test_reads_anywhere_and_writes_inside_pass(guard: Guard, outside: Path, tmp_path: Path) -> None:
    assert (outside / "file").read_text() == "before\n"
    os.close(os.open(outside / "file", os.O_RDONLY))
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f").write_text("x")
    shutil.rmtree(tmp_path / "a")
    assert guard.seen == []


def test_what_tempfile_makes_is_a_temp_dir_of_the_test(guard: Guard, outside: Path) -> None:
    made = Path(tempfile.mkdtemp(dir=outside))
    (made / "f").write_text("x")
    fd, name = tempfile.mkstemp(dir=outside)
    os.close(fd)
    os.unlink(name)
    shutil.rmtree(made)
    assert guard.seen == []
