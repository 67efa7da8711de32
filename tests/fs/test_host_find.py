"""find_host against fake host binaries under tmp_path: package.json, symlinks, --version."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from installer.host.pi import find_host
from tests.helpers import build_tree

PACKAGE = "@mariozechner/pi-coding-agent"


def script(body: str, marker: Path | None = None) -> str:
    """A POSIX shell script; when `marker` is given, running it leaves that file behind."""
    touch = f'echo ran >> "{marker}"\n' if marker else ""
    return f"#!/bin/sh\n{touch}{body}\n"


def make_executable(*paths: Path) -> None:
    for path in paths:
        path.chmod(path.stat().st_mode | stat.S_IXUSR)


def package_json(**fields: object) -> str:
    return json.dumps(fields)


def test_version_and_scope_come_from_package_json_without_running_the_host(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "ran"
    root = build_tree(
        tmp_path / "pkg",
        {
            "pi": script('echo "9.9.9"', marker),
            "package.json": package_json(name=PACKAGE, version="0.73.1", bin={"pi": "pi"}),
        },
    )
    make_executable(root / "pi")

    host = find_host("pi", path_env=str(root))

    assert host is not None
    assert (host.command, host.path, host.resolved) == ("pi", root / "pi", root / "pi")
    assert (host.version, host.version_source) == ("0.73.1", "package.json")
    assert (host.package, host.scope) == (PACKAGE, "@mariozechner")
    assert not marker.exists()


def test_a_symlink_chain_is_resolved_to_the_package_entry_point(tmp_path: Path) -> None:
    pkg = tmp_path / "lib" / "node_modules" / "@earendil-works" / "pi-coding-agent"
    build_tree(
        tmp_path,
        {
            f"{pkg.relative_to(tmp_path)}/dist/cli.js": script("echo 1.0.0"),
            f"{pkg.relative_to(tmp_path)}/dist/package.json": package_json(type="module"),
            f"{pkg.relative_to(tmp_path)}/package.json": package_json(
                name="@earendil-works/pi-coding-agent",
                version="0.80.0-rc.1",
                bin={"pi": "dist/cli.js"},
            ),
            "links/middle": pkg / "dist" / "cli.js",
            "bin/pi": Path("../links/middle"),
        },
    )
    make_executable(pkg / "dist" / "cli.js")

    host = find_host("pi", path_env=f"{tmp_path / 'empty'}{os.pathsep}{tmp_path / 'bin'}")

    assert host is not None
    assert host.path == tmp_path / "bin" / "pi"
    assert host.resolved == (pkg / "dist" / "cli.js").resolve()
    assert (host.version, host.version_source) == ("0.80.0-rc.1", "package.json")
    assert (host.package, host.scope) == ("@earendil-works/pi-coding-agent", "@earendil-works")


def test_a_path_instead_of_a_name(tmp_path: Path) -> None:
    build_tree(tmp_path, {"tools/my-pi": script("echo 0.70.1")})
    make_executable(tmp_path / "tools" / "my-pi")

    host = find_host(str(tmp_path / "tools" / "my-pi"), path_env="")

    assert host is not None
    assert host.path == tmp_path / "tools" / "my-pi"
    assert (host.version, host.version_source, host.package, host.scope) == (
        "0.70.1",
        "--version",
        None,
        None,
    )


def test_a_package_json_whose_bin_is_another_file_is_not_ours(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "proj",
        {
            "bin/pi": script('echo "pi v0.72.3 (node 20)"'),
            "package.json": package_json(name="some-project", version="5.0.0", bin="cli.js"),
        },
    )
    make_executable(root / "bin" / "pi")

    host = find_host("pi", path_env=str(root / "bin"))

    assert host is not None
    assert (host.version, host.version_source, host.package) == ("0.72.3", "--version", None)


def test_a_package_without_bin_fits_by_name(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "pi-dev",
        {"pi": script("exit 1"), "package.json": package_json(name="pi", version="0.73")},
    )
    make_executable(root / "pi")

    host = find_host("pi", path_env=str(root))

    assert host is not None
    assert (host.version, host.package, host.scope) == ("0.73", "pi", None)


def test_unreadable_package_json_or_bad_version_falls_back_to_running_it(tmp_path: Path) -> None:
    build_tree(
        tmp_path,
        {
            "a/pi": script("echo 0.71.0"),
            "a/package.json": "{ not json",
            "b/pi": script("echo 0.71.1"),
            "b/package.json": package_json(name=PACKAGE, version="banana", bin={"pi": "pi"}),
        },
    )
    make_executable(tmp_path / "a" / "pi", tmp_path / "b" / "pi")

    a = find_host("pi", path_env=str(tmp_path / "a"))
    b = find_host("pi", path_env=str(tmp_path / "b"))

    assert a is not None and (a.version, a.version_source, a.package) == (
        "0.71.0",
        "--version",
        None,
    )
    assert b is not None and (b.version, b.version_source) == ("0.71.1", "--version")
    assert (b.package, b.scope) == (PACKAGE, "@mariozechner")  # the package still fits


def test_a_host_that_hangs_on_version_times_out(tmp_path: Path) -> None:
    # `sleep` is a child of the shell: the whole group must die, or its open
    # stdout would keep us waiting after the shell is killed.
    build_tree(tmp_path, {"bin/pi": script("sleep 30\necho 0.73.1")})
    make_executable(tmp_path / "bin" / "pi")

    started = time.monotonic()
    path_env = f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"  # the run gets this PATH
    host = find_host("pi", path_env=path_env, timeout=0.5)

    assert time.monotonic() - started < 4
    assert host is not None
    assert (host.version, host.version_source) == (None, None)


def test_a_host_that_prints_garbage_has_no_version(tmp_path: Path) -> None:
    build_tree(
        tmp_path,
        {
            "garbage/pi": script("echo 'hello 1.2 world 3.4.5.6'; echo 'oops' >&2; exit 3"),
            "binary/pi": b"\x7fELF\x00\x01garbage that is no program",
            "empty/pi": script("true"),
        },
    )
    for name in ("garbage", "binary", "empty"):
        make_executable(tmp_path / name / "pi")
        host = find_host("pi", path_env=str(tmp_path / name))
        assert host is not None, name
        assert host.version is None, name


def test_a_version_on_stderr_is_read_too(tmp_path: Path) -> None:
    build_tree(tmp_path, {"bin/pi": script("echo 'pi 0.74.0' >&2")})
    make_executable(tmp_path / "bin" / "pi")

    host = find_host("pi", path_env=str(tmp_path / "bin"))

    assert host is not None and host.version == "0.74.0"


@pytest.mark.parametrize(
    ("named", "jiti", "seen"),
    [
        (None, None, "1 false"),
        ("/somewhere/ncc", None, " false /somewhere/ncc"),
        (None, "true", "1 true"),
    ],
)
def test_a_version_asked_of_the_host_leaves_no_compile_cache(
    named: str | None, jiti: str | None, seen: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pi's start turns Node's compile cache on (<tmp>/node-compile-cache); asked for its
    version, it runs with that cache (and jiti's) off: a read leaves nothing in temp. A
    folder the user named for Node's cache is theirs, and left on; so is jiti's cache when
    the user asked for it."""
    for var, value in (("NODE_COMPILE_CACHE", named), ("JITI_FS_CACHE", jiti)):
        if value is None:
            monkeypatch.delenv(var, raising=False)
        else:
            monkeypatch.setenv(var, value)
    said = tmp_path / "env.txt"
    echo = "$NODE_DISABLE_COMPILE_CACHE $JITI_FS_CACHE" + (" $NODE_COMPILE_CACHE" if named else "")
    body = f'echo "{echo}" > "{said}"\necho 1.6.0'
    build_tree(tmp_path, {"bin/pi": script(body)})
    make_executable(tmp_path / "bin" / "pi")

    host = find_host("pi", path_env=str(tmp_path / "bin"))

    assert host is not None and host.version == "1.6.0"
    assert said.read_text() == seen + "\n"


def test_not_found_is_none(tmp_path: Path) -> None:
    build_tree(
        tmp_path,
        {
            "bin/not-executable": "echo 0.1.0\n",
            "bin/dangling": tmp_path / "nowhere",
            "bin/a-folder": None,
        },
    )
    path = str(tmp_path / "bin")
    assert find_host("pi", path_env=path) is None
    assert find_host("not-executable", path_env=path) is None
    assert find_host("dangling", path_env=path) is None
    assert find_host("a-folder", path_env=path) is None
    assert find_host(str(tmp_path / "bin" / "missing"), path_env=path) is None
