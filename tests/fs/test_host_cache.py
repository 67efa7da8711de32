"""The host version behind a wrapper: asked once per binary identity, a hang said once."""

from __future__ import annotations

import os
import time
from pathlib import Path

from installer.host.pi import find_host
from tests.fs.test_host_find import make_executable, script
from tests.helpers import build_tree


def wrapper(tmp_path: Path, body: str) -> tuple[Path, Path]:
    """A pi that is a shell wrapper (no package.json): each run appends to a log."""
    log = tmp_path / "runs.log"
    build_tree(tmp_path, {"bin/pi": script(body, log)})
    make_executable(tmp_path / "bin" / "pi")
    return tmp_path / "bin" / "pi", log


def runs(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_a_wrapper_is_run_once_then_its_version_is_remembered(tmp_path: Path) -> None:
    pi, log = wrapper(tmp_path, "echo 0.73.1")

    first = find_host("pi", path_env=str(pi.parent))
    second = find_host("pi", path_env=str(pi.parent))

    assert first is not None and second is not None
    assert (first.version, second.version) == ("0.73.1", "0.73.1")
    assert second.version_source == "--version"
    assert runs(log) == 1


def test_a_changed_wrapper_is_asked_again(tmp_path: Path) -> None:
    pi, log = wrapper(tmp_path, "echo 0.73.1")
    assert find_host("pi", path_env=str(pi.parent)) is not None

    replacement = tmp_path / "new-pi"  # an upgrade writes a new file over the old one
    replacement.write_text(script("echo 0.74.0", log))
    make_executable(replacement)
    os.replace(replacement, pi)
    host = find_host("pi", path_env=str(pi.parent))

    assert host is not None and host.version == "0.74.0"
    assert runs(log) == 2


def test_fresh_asks_again_and_updates_what_is_remembered(tmp_path: Path) -> None:
    version = tmp_path / "version"
    version.write_text("0.73.1\n")
    pi, log = wrapper(tmp_path, f'read v < "{version}"; echo "$v"')
    assert find_host("pi", path_env=str(pi.parent)) is not None

    version.write_text("0.74.2\n")  # the pi behind the wrapper was upgraded
    stale = find_host("pi", path_env=str(pi.parent))
    fresh = find_host("pi", path_env=str(pi.parent), fresh=True)
    after = find_host("pi", path_env=str(pi.parent))

    assert stale is not None and stale.version == "0.73.1"
    assert fresh is not None and fresh.version == "0.74.2"
    assert after is not None and after.version == "0.74.2"
    assert runs(log) == 2


def test_a_hang_costs_one_timeout_and_is_said_once(tmp_path: Path) -> None:
    pi, log = wrapper(tmp_path, "sleep 30\necho 0.73.1")
    path_env = f"{pi.parent}{os.pathsep}{os.environ['PATH']}"

    # 2 s: time for the wrapper to log its run before it is killed, on a loaded machine too.
    first = find_host("pi", path_env=path_env, timeout=2)
    started = time.monotonic()
    second = find_host("pi", path_env=path_env, timeout=2)

    assert time.monotonic() - started < 1  # no second wait
    assert first is not None and second is not None
    assert (first.version, second.version) == (None, None)
    assert first.note is not None and "version unknown" in first.note
    assert second.note is None
    assert runs(log) == 1


def test_an_unwritable_cache_only_costs_speed(tmp_path: Path) -> None:
    pi, log = wrapper(tmp_path, "echo 0.73.1")
    cache_home = Path(os.environ["XDG_CACHE_HOME"])
    cache_home.parent.mkdir(parents=True, exist_ok=True)
    cache_home.write_text("a file where the cache folder should be")

    hosts = [find_host("pi", path_env=str(pi.parent)) for _ in range(2)]

    assert [h.version for h in hosts if h is not None] == ["0.73.1", "0.73.1"]
    assert runs(log) == 2


def test_a_package_json_host_is_never_run_nor_cached(tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    build_tree(
        tmp_path / "pkg",
        {
            "pi": script("echo 9.9.9", log),
            "package.json": '{"name": "pi", "version": "0.73.1", "bin": {"pi": "pi"}}',
        },
    )
    make_executable(tmp_path / "pkg" / "pi")

    host = find_host("pi", path_env=str(tmp_path / "pkg"))

    assert host is not None and host.version == "0.73.1"
    assert runs(log) == 0
    assert not (Path(os.environ["XDG_CACHE_HOME"]) / "extset" / "host-version.json").exists()


def test_an_unknown_version_is_asked_again_within_the_hour_a_known_one_within_the_day(
    tmp_path: Path,
) -> None:
    """A first `pi --version` after an install can outlast the timeout on a cold disk: that
    must not leave the drift check blind for a day."""
    from installer.host import cache as host_cache

    known = host_cache.identity(build_tree(tmp_path, {"known": "a"}) / "known")
    unknown = host_cache.identity(build_tree(tmp_path, {"unknown": "b"}) / "unknown")
    host_cache.remember(known, "0.73.1")
    host_cache.remember(unknown, None)
    later = time.time() + 2 * 3600

    assert host_cache.lookup(known, later) == host_cache.Cached("0.73.1")
    assert host_cache.lookup(unknown, later) is None
    assert host_cache.lookup(unknown) == host_cache.Cached(None)


def test_a_wrapper_that_names_pi_by_path_is_asked_again_when_that_pi_is_upgraded(
    tmp_path: Path,
) -> None:
    """`exec /path/to/pi "$@"`: the wrapper stays the same file over an upgrade of the pi it
    names, so that pi's identity is part of the key, and an upgrade costs one Node start."""
    log = tmp_path / "runs.log"
    real = tmp_path / "real" / "pi"
    build_tree(tmp_path, {"real/pi": script("echo 0.73.1", log)})
    make_executable(real)
    build_tree(tmp_path, {"bin/pi": f'#!/bin/sh\nexec "{real}" "$@"\n'})
    make_executable(tmp_path / "bin" / "pi")
    path_env = str(tmp_path / "bin")
    assert find_host("pi", path_env=path_env) is not None

    upgraded = tmp_path / "real" / "pi.new"  # npm writes the new version's files anew
    upgraded.write_text(script("echo 0.74.0", log))
    make_executable(upgraded)
    os.replace(upgraded, real)
    first = find_host("pi", path_env=path_env)
    second = find_host("pi", path_env=path_env)

    assert first is not None and first.version == "0.74.0"
    assert second is not None and second.version == "0.74.0"
    assert runs(log) == 2
