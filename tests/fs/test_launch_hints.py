"""`ext launch`'s hints on fake pis (a package.json in npm's global layout, no Node started):
no pi names today's package; a pi outside the tested range names a tested one."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from installer.commands.launch import prepare_launch
from installer.ground.context import Context, Env, resolve
from installer.ground.errors import ExtError
from installer.host.lines import NEW_PACKAGE, OLD_PACKAGE
from tests.helpers import build_tree


def context(tmp_path: Path, path: Path) -> Context:
    manifest = '[set]\nname = "probe"\n[host]\ntested = ">=0.73.0 <0.74.0"\n'
    root = build_tree(tmp_path / "set", {"extset.toml": manifest, "extensions/a.ts": ""})
    env = Env(environ={**os.environ, "PATH": str(path)}, cwd=tmp_path)
    (tmp_path / "agent").mkdir()
    return resolve(env, root, tmp_path / "agent")


def npm_global_pi(prefix: Path, package: str, version: str) -> Path:
    """`<prefix>/bin/pi` -> `<prefix>/lib/node_modules/<package>/dist/bundle/cli.js`."""
    home = prefix / "lib" / "node_modules" / package
    manifest = {"name": package, "version": version, "bin": {"pi": "dist/bundle/cli.js"}}
    build_tree(home, {"package.json": json.dumps(manifest), "dist/bundle/cli.js": ""})
    (home / "dist" / "bundle" / "cli.js").chmod(0o755)
    (prefix / "bin").mkdir()
    (prefix / "bin" / "pi").symlink_to(home / "dist" / "bundle" / "cli.js")
    return prefix / "bin"


def test_no_pi_is_told_to_install_todays_package(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()

    with pytest.raises(ExtError) as raised:
        prepare_launch(context(tmp_path, empty))

    assert raised.value.message == "pi was not found on PATH"
    assert raised.value.fix is not None
    assert f"npm install -g {NEW_PACKAGE} (it needs Node >=22.19.0)" in raised.value.fix
    assert OLD_PACKAGE not in raised.value.fix


def test_pi_1_6_outside_an_old_range_is_told_the_old_package(tmp_path: Path) -> None:
    bin_dir = npm_global_pi(tmp_path / "npm", NEW_PACKAGE, "1.6.0")

    host, warnings = prepare_launch(context(tmp_path, bin_dir))

    assert host.version == "1.6.0" and host.package == NEW_PACKAGE
    assert warnings == [
        "pi 1.6.0 is newer than the versions this set was tested with (>=0.73.0 <0.74.0): "
        f"only {OLD_PACKAGE} has those versions: npm uninstall -g {NEW_PACKAGE} && "
        f"npm install -g {OLD_PACKAGE}@0.73.1, or re-test the set and widen [host] tested "
        "in extset.toml"
    ]


def test_the_warnings_go_to_pi_for_its_notice_and_an_outer_launch_s_do_not(
    tmp_path: Path,
) -> None:
    from installer.commands.launch import NOTICE_VAR, Exec

    bin_dir = npm_global_pi(tmp_path / "npm", NEW_PACKAGE, "1.6.0")
    host, warnings = prepare_launch(context(tmp_path, bin_dir))
    outer = {"PATH": "/bin", NOTICE_VAR: "an older launch's warning"}

    env = Exec(host, (), tuple(warnings)).env(outer)

    assert env[NOTICE_VAR] == warnings[0] and env["PATH"] == "/bin"
    assert NOTICE_VAR not in Exec(host, (), ()).env(outer)


@pytest.mark.parametrize(
    ("args", "waits"),
    [
        ((), True),
        (("-c",), True),
        (("--model", "sonnet"), True),  # helper-50: an option's value is no command of pi's
        (("fix the tests",), True),  # an opening message: pi's screen all the same
        (("@notes.md",), True),
        (("list",), False),
        (("install", "npm:x"), False),
        (("-c", "update"), True),  # helper-52: pi takes a command only as its first argument
        (("--verbose", "list"), True),
        (("--version",), False),
        (("-p", "hi"), False),
        (("--mode", "rpc"), False),
    ],
)
def test_launch_waits_before_pis_full_screen_only(
    tmp_path: Path, args: tuple[str, ...], waits: bool
) -> None:
    from types import SimpleNamespace

    from installer.commands.launch import wiped_unsaid
    from installer.ground.context import Env

    ttys = Env(environ={}, cwd=tmp_path, stdin_tty=True, stdout_tty=True, stderr_tty=True)
    ctx: Any = SimpleNamespace(agent_dir=tmp_path, env=ttys)  # no /ext in it
    assert wiped_unsaid(ctx, args) is waits


def test_a_sets_own_host_path_that_is_missing_is_said_as_that(tmp_path: Path) -> None:
    """helper-67: a missing `bin/pi` of the set read "not found on PATH", with "set [host]
    command to its path" as the fix."""
    manifest = '[set]\nname = "probe"\n[host]\ncommand = "bin/pi"\n'
    root = build_tree(tmp_path / "set", {"extset.toml": manifest, "extensions/a.ts": ""})
    (tmp_path / "agent").mkdir()
    ctx = resolve(Env(environ=dict(os.environ), cwd=tmp_path), root, tmp_path / "agent")

    with pytest.raises(ExtError) as raised:
        prepare_launch(ctx)

    said = f"{root}/bin/pi, the set's [host] command, is not an executable file"
    assert raised.value.message == said
    assert raised.value.fix is not None and "[host] command in extset.toml" in raised.value.fix


@pytest.mark.parametrize(
    ("command", "taken"),
    [
        ("pi", "pi"),
        ("bin/pi", "{root}/bin/pi"),
        ("./bin/../bin/pi", "{root}/bin/../bin/pi"),
        ("~/bin/pi", "~/bin/pi"),  # the home, as pi reads `~/`
        ("~x/pi", "{root}/~x/pi"),  # a folder named `~x`, as pi reads it (helper-67)
        ("/opt/pi/bin/pi", "/opt/pi/bin/pi"),
    ],
)
def test_a_relative_host_command_is_taken_from_the_sets_folder(
    tmp_path: Path, command: str, taken: str
) -> None:
    from installer.ground.manifest import parse_manifest

    root = tmp_path / "set"
    text = f'[set]\nname = "probe"\n[host]\ncommand = "{command}"\n'.encode()
    manifest = parse_manifest(text, root / "extset.toml")
    assert manifest.host_command == taken.format(root=root)
