"""A set ext finds by itself, walking up from the working folder, chooses nothing `launch`
and `env` run or point pi at until it is named or installed (helper-63: in a cloned
repository, `ext launch` ran the repository's `bin/pi`, and its `[target] agent_dir` had pi
load the repository's extensions, no consent asked)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.commands.install import Install, install
from installer.commands.launch import Exec, Launch, launch
from installer.ground.context import Env, resolve
from installer.ground.errors import Refused
from installer.ground.installs import sync
from tests.helpers import build_tree, yes


def repository(tmp_path: Path, manifest: str) -> tuple[Path, Path]:
    """A cloned repository holding an extset.toml, a `bin/pi` that leaves a marker, and an
    agent dir of its own with an extension in it."""
    marker = tmp_path / "ran"
    root = build_tree(
        tmp_path / "repo",
        {
            "extset.toml": f'[set]\nname = "proj"\n{manifest}',
            "bin/pi": f'#!/bin/sh\necho "$0 $*" >> "{marker}"\necho 1.6.0\n',
            "agentdir/extensions/evil.ts": "export default function () {}\n",
            "src/main.py": "",
        },
    )
    (root / "bin" / "pi").chmod(0o755 | stat.S_IXUSR)
    return root, marker


@pytest.fixture(autouse=True)
def in_the_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process's cwd is the repository's root, where its `bin/pi` resolves."""
    (tmp_path / "repo").mkdir()
    monkeypatch.chdir(tmp_path / "repo")


def found_here(root: Path) -> Env:
    return Env(environ=dict(os.environ), cwd=root)


def test_launch_refuses_the_host_command_of_a_set_found_from_the_working_folder(
    tmp_path: Path,
) -> None:
    root, marker = repository(tmp_path, '[host]\ncommand = "bin/pi"\n')
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    ctx = resolve(found_here(root), None, agent)
    assert ctx.set_source == "cwd"

    with pytest.raises(Refused) as raised:
        launch(ctx, Launch(("--version",)))

    assert not marker.exists()
    assert raised.value.message == (
        f"not using the set found from the working folder, {root}: ext never installed it, "
        f"and its [host] command {root}/bin/pi would run"
    )
    assert raised.value.fix == (
        f"if you trust that set, name it: `ext --set {root} launch` (or install it first: "
        f"`ext --set {root} install`); else run ext from a folder outside it"
    )


def test_launch_refuses_an_agent_dir_the_found_set_chose(tmp_path: Path) -> None:
    root, _ = repository(tmp_path, '[target]\nagent_dir = "agentdir"\n')
    ctx = resolve(found_here(root), None, None)
    assert ctx.agent_dir_source == "[target] agent_dir"

    with pytest.raises(Refused) as raised:
        launch(ctx, Launch())

    assert f"its [target] agent_dir would have pi load {root / 'agentdir'}" in raised.value.message
    # The dir's own state record, forged by the repository, trusts nothing.
    build_tree(root / "agentdir", {".extset/state.json": f'{{"sets": [{{"root": "{root}"}}]}}'})
    with pytest.raises(Refused):
        launch(resolve(found_here(root), None, None), Launch())


def test_naming_the_set_trusts_it(tmp_path: Path) -> None:
    root, _ = repository(tmp_path, '[host]\ncommand = "bin/pi"\n')
    agent = build_tree(tmp_path / "agent", {"extensions": None})

    ran = launch(resolve(found_here(root), root, agent), Launch(("--version",)))

    assert isinstance(ran, Exec) and ran.host.path == root / "bin" / "pi"


def test_a_set_ext_installed_is_trusted_from_its_folder(tmp_path: Path) -> None:
    root, _ = repository(tmp_path, '[host]\ncommand = "bin/pi"\n[target]\nagent_dir = "agentdir"\n')
    ctx = resolve(found_here(root), None, None)
    install(ctx, Install(yes=True), yes)
    sync(ctx.agent_dir)  # what the CLI does after every install

    assert isinstance(launch(ctx, Launch()), Exec)


def test_a_set_with_nothing_to_choose_is_used_as_before(tmp_path: Path) -> None:
    root, _ = repository(tmp_path, "")
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    ctx = resolve(found_here(root), None, agent)

    with pytest.raises(Exception) as raised:  # no pi on this PATH, or one: not a refusal
        launch(ctx._replace(env=Env(environ={"PATH": str(tmp_path)}, cwd=root)), Launch())
    assert not isinstance(raised.value, Refused)


def test_env_prints_no_line_for_the_found_sets_own_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = repository(tmp_path, '[target]\nagent_dir = "agentdir"\n')
    monkeypatch.delenv("PI_CODING_AGENT_DIR", raising=False)
    monkeypatch.delenv("EXT_AGENT_DIR", raising=False)
    monkeypatch.delenv("EXT_SET", raising=False)

    result = CliRunner().invoke(app, ["env"])

    assert result.exit_code == 3, result.output
    assert result.stdout == ""
    assert "ext never installed it" in result.stderr
    named = CliRunner().invoke(app, ["--set", str(root), "env"])
    assert named.exit_code == 0, named.output
    assert named.stdout.strip().endswith(str(root / "agentdir"))
