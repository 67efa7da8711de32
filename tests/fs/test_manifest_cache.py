"""The parsed-manifest cache: used only while the file's stat is unchanged, never for a file
too new to trust its timestamps, and never a reason to fail."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from installer.ground import manifest, manifest_cache
from installer.ground.errors import UsageError
from installer.ground.manifest import load_manifest
from tests.helpers import build_tree

TOML = '[set]\nname = "alpha"\n'


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by the test count as old enough to keep."""
    monkeypatch.setattr(manifest_cache, "SETTLED_NS", 0)


def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def parse(raw: bytes, path: Path) -> dict[str, object]:
        raise AssertionError(f"{path} was parsed again")

    monkeypatch.setattr(manifest, "_parse", parse)


def write(root: Path, text: str) -> Path:
    return build_tree(root, {"extset.toml": text}) / "extset.toml"


def entries() -> dict[str, object]:
    data = json.loads(manifest_cache.cache_path().read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.usefixtures("settled")
def test_an_unchanged_manifest_is_not_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "set", TOML)
    first = load_manifest(tmp_path / "set")
    no_parsing(monkeypatch)
    assert load_manifest(tmp_path / "set") == first
    assert first.name == "alpha"


@pytest.mark.usefixtures("settled")
def test_an_edit_of_the_same_size_is_read(tmp_path: Path) -> None:
    path = write(tmp_path / "set", TOML)
    assert load_manifest(tmp_path / "set").name == "alpha"
    path.write_text(TOML.replace("alpha", "omega"), encoding="utf-8")
    assert load_manifest(tmp_path / "set").name == "omega"


@pytest.mark.usefixtures("settled")
def test_a_file_put_in_its_place_is_read(tmp_path: Path) -> None:
    path = write(tmp_path / "set", TOML)
    load_manifest(tmp_path / "set")
    other = tmp_path / "other.toml"
    other.write_text(TOML.replace("alpha", "gamma"), encoding="utf-8")
    stat = path.stat()
    os.utime(other, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size and mtime
    os.replace(other, path)
    assert load_manifest(tmp_path / "set").name == "gamma"


def test_a_file_just_written_is_not_kept(tmp_path: Path) -> None:
    """Under two seconds old, a second edit might not move a coarse timestamp."""
    write(tmp_path / "set", TOML)
    assert load_manifest(tmp_path / "set").name == "alpha"
    assert not manifest_cache.cache_path().exists()


@pytest.mark.usefixtures("settled")
def test_a_cached_manifest_warns_and_fails_as_the_file_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "set", '[set]\nname = "alpha"\nnmae = "typo"\n')
    fresh = load_manifest(tmp_path / "set")
    write(tmp_path / "bad", '[set]\nmode = "copy"\n')
    with pytest.raises(UsageError) as first:
        load_manifest(tmp_path / "bad")
    no_parsing(monkeypatch)
    assert load_manifest(tmp_path / "set").warnings == fresh.warnings != ()
    with pytest.raises(UsageError) as again:
        load_manifest(tmp_path / "bad")
    assert (again.value.message, again.value.fix) == (first.value.message, first.value.fix)


@pytest.mark.usefixtures("settled")
def test_a_table_json_cannot_carry_is_not_kept(tmp_path: Path) -> None:
    write(tmp_path / "set", '[set]\nname = "alpha"\nwhen = 2026-11-29T10:00:00Z\n')
    assert load_manifest(tmp_path / "set").name == "alpha"
    assert not manifest_cache.cache_path().exists()


@pytest.mark.usefixtures("settled")
@pytest.mark.parametrize("junk", [b"", b"{not json", b"[1, 2]", b'{"x": 1}'])
def test_a_broken_cache_is_a_miss_and_is_replaced(tmp_path: Path, junk: bytes) -> None:
    cache = manifest_cache.cache_path()
    cache.parent.mkdir(parents=True)
    cache.write_bytes(junk)
    write(tmp_path / "set", TOML)
    assert load_manifest(tmp_path / "set").name == "alpha"
    assert str(tmp_path / "set" / "extset.toml") in entries()


@pytest.mark.usefixtures("settled")
def test_an_unwritable_cache_never_fails_a_command(tmp_path: Path) -> None:
    cache_dir = manifest_cache.cache_path().parent
    cache_dir.parent.mkdir(parents=True)
    cache_dir.write_text("a file where the cache folder goes\n")
    write(tmp_path / "set", TOML)
    assert load_manifest(tmp_path / "set").name == "alpha"
    assert load_manifest(tmp_path / "set").name == "alpha"


@pytest.mark.usefixtures("settled")
def test_it_remembers_the_latest_sets_only(tmp_path: Path) -> None:
    roots = [tmp_path / f"set{i:02}" for i in range(manifest_cache.KEEP + 3)]
    for root in roots:
        write(root, TOML)
        load_manifest(root)
    kept = entries()
    assert len(kept) == manifest_cache.KEEP
    assert str(roots[-1] / "extset.toml") in kept
    assert str(roots[0] / "extset.toml") not in kept


@pytest.mark.usefixtures("settled")
def test_it_is_private_and_one_others_can_write_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table decides what `ext launch` runs: a cache anyone could have written is a miss."""
    path = write(tmp_path / "set", TOML)
    load_manifest(tmp_path / "set")
    cache = manifest_cache.cache_path()
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache.parent.stat().st_mode) == 0o700
    poisoned = entries()
    poisoned[str(path)]["data"]["host"] = {"command": "/tmp/not-pi"}  # type: ignore[index]
    cache.write_text(json.dumps(poisoned), encoding="utf-8")
    assert load_manifest(tmp_path / "set").host_command == "/tmp/not-pi"  # ours: trusted
    cache.chmod(0o666)
    assert load_manifest(tmp_path / "set").host_command == "pi"
