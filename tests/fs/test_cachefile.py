"""ext's answer caches: a cache only saves time, so anything odd about one reads as empty."""

from __future__ import annotations

import json
from pathlib import Path

from installer.ground.cachefile import read_table, write_table


def test_a_table_written_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "answers.json"
    write_table(path, 1, "hosts", {"/bin/pi": {"version": "0.73.1"}})
    assert read_table(path, 1, "hosts") == {"/bin/pi": {"version": "0.73.1"}}


def test_another_schema_a_symlink_or_bad_rows_read_as_empty(tmp_path: Path) -> None:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps({"schema": 2, "hosts": {"a": {}}}))
    assert read_table(path, 1, "hosts") == {}

    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps({"schema": 1, "hosts": {"a": {"v": 1}}}))
    link = tmp_path / "link.json"
    link.symlink_to(elsewhere)
    assert read_table(link, 1, "hosts") == {}

    path.write_text(json.dumps({"schema": 1, "hosts": {"a": 1, "b": {"v": 2}}}))
    assert read_table(path, 1, "hosts") == {"b": {"v": 2}}


def test_a_cache_that_cannot_be_written_is_left_alone(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the folder should be")
    write_table(blocker / "answers.json", 1, "hosts", {"a": {}})
    assert blocker.read_text() == "a file where the folder should be"
