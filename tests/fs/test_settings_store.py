"""The one settings.json writer: layout kept, atomic, through symlinks, never on a bad file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from installer.ground.errors import ExitCode, ExtError
from installer.settings import jsondoc
from installer.settings.seeds import apply_seeds
from installer.settings.store import (
    compose,
    preview_update,
    read_settings,
    restore_text,
    update_settings,
)


def _seed(**keys: Any) -> Any:
    return lambda data: apply_seeds(data, keys).settings


def _no_leftovers(folder: Path) -> None:
    assert not (folder / "settings.json.lock").exists()
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('{\n    "a": 1\n}\n', '{\n    "a": 1,\n    "b": [\n        2\n    ]\n}\n'),
        ('{\n  "a": 1\n}\n', '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}\n'),
        ('{\n\t"a": 1\n}\n', '{\n\t"a": 1,\n\t"b": [\n\t\t2\n\t]\n}\n'),
        ('{\n  "a": 1\n}', '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}'),
        ('{"a":1}', '{"a":1,"b":[2]}'),
    ],
    ids=["4-space", "2-space", "tabs", "no final newline", "compact"],
)
def test_write_keeps_indent_order_and_final_newline(
    tmp_path: Path, before: str, after: str
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(before)
    update = update_settings(path, _seed(b=[2]))
    assert path.read_text() == after
    assert (update.before, update.after, update.changed) == (before, after, True)
    _no_leftovers(tmp_path)


def test_no_change_leaves_the_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{ "a" : 1,\n "b": {"c": 2} }')  # a layout ext could not reproduce
    os.utime(path, (1_000_000, 1_000_000))
    update = update_settings(path, _seed(a=5))
    assert not update.changed
    assert path.read_text() == '{ "a" : 1,\n "b": {"c": 2} }'
    assert path.stat().st_mtime == 1_000_000
    _no_leftovers(tmp_path)


def test_missing_file_is_created_with_only_what_ext_needs(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    update = update_settings(path, _seed(**{"compaction.enabled": True}))
    assert path.read_text() == '{\n  "compaction": {\n    "enabled": true\n  }\n}\n'
    assert update.before is None
    _no_leftovers(tmp_path)


def test_missing_file_is_not_created_for_nothing(tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    update = update_settings(agent / "settings.json", lambda data: data)
    assert (update.before, update.after) == (None, None)
    assert list(agent.iterdir()) == []


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{\n  "a": 1,\n}\n', "line 3, column 1"),
        ('{\n  "a": 1,\n  "a": 2\n}\n', "line 3, column 3"),
        ('{"a": ' + "[" * 200 + "]" * 200 + "}", "line 1, column 70"),
        ("[1, 2]", "line 1, column 1"),
    ],
    ids=["syntax", "duplicate key", "too deep", "not an object"],
)
def test_unparseable_file_is_left_byte_identical(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text)
    with pytest.raises(ExtError) as err:
        update_settings(path, _seed(b=1))
    assert err.value.exit_code == ExitCode.FAILED
    assert where in err.value.message
    assert str(path) in err.value.message
    assert path.read_text() == text
    _no_leftovers(tmp_path)


def test_huge_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    with path.open("wb") as handle:
        handle.truncate(jsondoc.MAX_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(ExtError, match="larger than 10 MiB"):
        update_settings(path, _seed(b=1))
    assert path.stat().st_size == jsondoc.MAX_BYTES + 1
    _no_leftovers(tmp_path)


def test_invalid_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b'{"a": "\xc3"}')
    with pytest.raises(ExtError, match="invalid UTF-8 at line 1, column 8"):
        update_settings(path, _seed(b=1))
    assert path.read_bytes() == b'{"a": "\xc3"}'


def _emptied(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "packages"}


def test_remove_empty_removes_a_file_left_empty_and_only_that(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{\n  "packages": []\n}\n')
    update = update_settings(path, _emptied, remove_empty=True)
    assert (update.before, update.after) == ('{\n  "packages": []\n}\n', None)
    assert not path.exists()
    _no_leftovers(tmp_path)

    path.write_text('{\n  "a": 1,\n  "packages": []\n}\n')
    update_settings(path, _emptied, remove_empty=True)
    assert path.read_text() == '{\n  "a": 1\n}\n'  # something else in it: it stays


def test_remove_empty_never_removes_a_link_nor_what_it_points_to(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles.json"
    real.write_text('{"packages": []}')
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    update_settings(link, _emptied, remove_empty=True)
    assert link.is_symlink() and real.read_text() == "{}"


def test_symlinked_settings_is_written_through(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "pi-settings.json"
    real.write_text('{\n    "a": 1\n}\n')
    agent = tmp_path / "agent"
    agent.mkdir()
    link = agent / "settings.json"
    link.symlink_to(real)
    update_settings(link, _seed(b=2))
    assert link.is_symlink()
    assert os.readlink(link) == str(real)
    assert real.read_text() == '{\n    "a": 1,\n    "b": 2\n}\n'
    _no_leftovers(agent)
    _no_leftovers(dotfiles)


def test_permissions_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{}")
    path.chmod(0o600)
    update_settings(path, _seed(b=2))
    assert path.stat().st_mode & 0o777 == 0o600


def test_failed_replace_leaves_the_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"a": 1}')

    def broken(self: Path, target: Any) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "replace", broken)
    with pytest.raises(ExtError, match="No space left"):
        update_settings(path, _seed(b=2))
    assert path.read_text() == '{"a": 1}'
    _no_leftovers(tmp_path)


def test_a_failing_change_writes_nothing_and_releases_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"a": 1}')

    def change(data: dict[str, Any]) -> dict[str, Any]:
        raise ExtError("planned failure")

    with pytest.raises(ExtError, match="planned failure"):
        update_settings(path, change)
    assert path.read_text() == '{"a": 1}'
    _no_leftovers(tmp_path)


def test_preview_shows_the_change_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{\n  "a": 1\n}\n')
    update = preview_update(path, _seed(b=2))
    assert update.after == '{\n  "a": 1,\n  "b": 2\n}\n'
    assert path.read_text() == '{\n  "a": 1\n}\n'
    _no_leftovers(tmp_path)


def test_read_settings_of_a_missing_file_takes_no_lock(tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    doc = read_settings(agent / "settings.json")
    assert (doc.text, doc.data) == (None, {})
    assert list(agent.iterdir()) == []


def test_missing_agent_dir_is_an_error_naming_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ExtError) as err:
        update_settings(tmp_path / "nope" / "settings.json", _seed(b=1))
    assert err.value.fix and "exists" in err.value.fix


def test_composed_changes_make_one_write(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{\n  "a": 1\n}\n')
    update = update_settings(path, compose(_seed(b=2), lambda data: None, _seed(c=3)))
    assert update.after == '{\n  "a": 1,\n  "b": 2,\n  "c": 3\n}\n'
    assert path.read_text() == update.after


def test_restore_puts_back_earlier_bytes(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{ "a": 1 }')
    update = update_settings(path, _seed(b=2))
    restore_text(path, update.after, update.before)
    assert path.read_text() == '{ "a": 1 }'
    _no_leftovers(tmp_path)


def test_restore_of_a_created_file_removes_it(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    update = update_settings(path, _seed(b=2))
    restore_text(path, update.after, update.before)
    assert not path.exists()


def test_restore_never_clobbers_a_newer_change(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{}")
    update = update_settings(path, _seed(b=2))
    path.write_text('{"user": "edited"}')
    with pytest.raises(ExtError, match="changed since"):
        restore_text(path, update.after, update.before)
    assert path.read_text() == '{"user": "edited"}'


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_settings_that_is_not_a_file_is_refused_without_hanging(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "settings.json"
    if kind == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)
    with pytest.raises(ExtError, match="not a regular file"):
        update_settings(path, _seed(b=1))
    _no_leftovers(tmp_path)


def test_a_link_into_a_folder_that_is_not_there_is_refused_by_name(tmp_path: Path) -> None:
    """helper-86: the write through it failed with "check that the folder is writable and has
    free space", a folder that did not exist."""
    link = tmp_path / "settings.json"
    link.symlink_to(tmp_path / "gone" / "sub" / "x.json")
    with pytest.raises(ExtError) as raised:
        update_settings(link, _seed(b=2))
    assert raised.value.message == (
        f"cannot write {link}: it is a link to {tmp_path / 'gone' / 'sub' / 'x.json'}, in a "
        "folder that does not exist; it was left as it was"
    )
    assert raised.value.fix == f"point the link at a file, remove it, or make {tmp_path}/gone/sub"
    assert link.is_symlink() and not (tmp_path / "gone").exists()


def test_a_link_loop_is_named_as_one_not_as_permissions(tmp_path: Path) -> None:
    link = tmp_path / "settings.json"
    link.symlink_to(link)
    with pytest.raises(ExtError) as raised:
        read_settings(link)
    assert raised.value.fix == f"{link} is a link in a loop: remove it, or point it at a file"
