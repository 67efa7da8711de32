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
from installer.ground.errors import ExtError, Refused
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
        f"not using the set found in or above the working folder, {root}: ext never installed it, "
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
    pi = build_tree(tmp_path / "ubin", {"pi": "#!/bin/sh\necho 1.6.0\n"})
    (pi / "pi").chmod(0o755)
    env = Env(environ={**os.environ, "PATH": str(pi)}, cwd=root)

    ran = launch(resolve(env, None, agent), Launch(("--version",)))

    assert isinstance(ran, Exec) and ran.host.path == pi / "pi"


def test_a_bare_command_other_than_pi_is_the_sets_choice_too(tmp_path: Path) -> None:
    """helper-65: `[host] command = "make"` ran the repository's Makefile."""
    root, _ = repository(tmp_path, '[host]\ncommand = "make"\n')
    agent = build_tree(tmp_path / "agent", {"extensions": None})

    with pytest.raises(Refused) as raised:
        launch(resolve(found_here(root), None, agent), Launch())

    assert raised.value.message.endswith("and its [host] command make would run")


@pytest.mark.parametrize("verb", ["env", "launch"])
def test_another_hosts_dir_the_found_set_chose_is_refused_too(tmp_path: Path, verb: str) -> None:
    """helper-64, helper-65: `[hosts.claude] agent_dir` pointed Claude Code (and Codex's,
    OpenCode's variable) at the repository's own hooks."""
    from installer.commands.env import EnvLine, env

    root, _ = repository(tmp_path, '[hosts.claude]\nagent_dir = "cdir"\n')
    (root / "cdir").mkdir()
    ctx = resolve(found_here(root), None, None, host="claude")
    assert ctx.agent_dir_source == "[hosts.claude] agent_dir"

    with pytest.raises(Refused) as raised:
        env(ctx, EnvLine()) if verb == "env" else launch(ctx, Launch())

    assert f"its [hosts.claude] agent_dir would have Claude Code load {root / 'cdir'}" in (
        raised.value.message
    )


def test_another_hosts_binary_through_a_relative_path_entry_is_refused(tmp_path: Path) -> None:
    root, _ = repository(tmp_path, "")
    build_tree(root, {"claude": "#!/bin/sh\ntouch ran\n"})
    (root / "claude").chmod(0o755)
    env = Env(environ={**os.environ, "PATH": f".:{os.environ['PATH']}"}, cwd=root)
    (tmp_path / "claude-dir").mkdir()

    with pytest.raises(ExtError) as raised:  # helper-77: looked up in absolute entries only
        launch(resolve(env, None, tmp_path / "claude-dir", host="claude"), Launch())

    assert raised.value.message == (
        "claude (Claude Code) was not found on PATH (only ./claude, through a relative entry, "
        "which ext never runs)"
    )
    assert not (root / "ran").exists()


def test_the_set_named_by_ext_set_is_trusted(tmp_path: Path) -> None:
    root, _ = repository(tmp_path, '[host]\ncommand = "bin/pi"\n')
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    env = Env(environ={**os.environ, "EXT_SET": str(root)}, cwd=root)

    ran = launch(resolve(env, None, agent), Launch(("--version",)))

    assert isinstance(ran, Exec) and ran.host.path == root / "bin" / "pi"


def test_a_dir_the_user_named_that_holds_the_set_trusts_it(tmp_path: Path) -> None:
    """The agent dir came from the user (`--agent-dir`), not the set: its record counts."""
    root, _ = repository(tmp_path, '[host]\ncommand = "bin/pi"\n')
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    ctx = resolve(found_here(root), None, agent)
    install(ctx, Install(yes=True), yes)  # no sync: ext's own record does not name it

    assert isinstance(launch(ctx, Launch(("--version",))), Exec)


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


@pytest.mark.parametrize("program", ["pi", "node"])
def test_pi_or_its_node_through_a_relative_path_entry_is_refused(
    tmp_path: Path, program: str
) -> None:
    """A bare `pi` (the set chose nothing) that PATH's `.` finds in the repository is never
    run; helper-66: pi's `#!/usr/bin/env node` ran the repository's `node`, PATH holding
    `../../bin`, and `ext launch` hands pi the user's PATH as it is: refused."""
    root, _ = repository(tmp_path, "")
    build_tree(root, {program: "#!/bin/sh\ntouch ran\n"})
    (root / program).chmod(0o755)
    ubin = build_tree(tmp_path / "ubin", {"pi": "#!/bin/sh\necho 1.6.0\n"})
    (ubin / "pi").chmod(0o755)
    path = f".:{ubin}" if program == "pi" else f"{ubin}:."
    env = Env(environ={**os.environ, "PATH": path}, cwd=root)
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    if program == "pi":  # helper-77: ext looks pi up in PATH's absolute entries: the user's
        ran = launch(resolve(env, None, agent), Launch())
        assert isinstance(ran, Exec) and ran.host.path == ubin / "pi"
        return

    with pytest.raises(Refused) as raised:  # pi's `#!/usr/bin/env node` gets the PATH as it is
        launch(resolve(env, None, agent), Launch())

    assert raised.value.message.endswith(
        f"and the {program} PATH finds here, ./{program}, is the set's own (inside it, or "
        "found through a relative PATH entry)"
    )


def test_ext_s_own_checkout_found_from_its_folder_is_ext_s_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-66: `cd` into ext's checkout, with the README's `.cache` pi on PATH: `ext launch`
    was refused, that pi being inside the set."""
    import installer.ground.context as context_module
    from installer.host.set_command import refuse_strange_set

    root, _ = repository(tmp_path, "")
    build_tree(root, {".cache/bin/pi": "#!/bin/sh\necho 1.6.0\n"})
    (root / ".cache/bin/pi").chmod(0o755)
    env = Env(environ={**os.environ, "PATH": str(root / ".cache/bin")}, cwd=root)
    ctx = resolve(env, None, build_tree(tmp_path / "agent", {"extensions": None}))
    with pytest.raises(Refused):
        refuse_strange_set(ctx, "launch")

    monkeypatch.setattr(context_module, "ext_checkout", root.resolve)
    refuse_strange_set(ctx, "launch")  # ext's own: no refusal


def test_another_hosts_node_through_a_relative_path_entry_is_refused(tmp_path: Path) -> None:
    """helper-68: Gemini CLI's `#!/usr/bin/env node` ran the repository's `./node`."""
    root, _ = repository(tmp_path, "")
    build_tree(root, {"node": "#!/bin/sh\ntouch ran\n"})
    (root / "node").chmod(0o755)
    ubin = build_tree(tmp_path / "ubin", {"gemini": "#!/bin/sh\n"})
    (ubin / "gemini").chmod(0o755)
    (tmp_path / "gemini-dir").mkdir()
    env = Env(environ={**os.environ, "PATH": f"{ubin}:."}, cwd=root)

    with pytest.raises(Refused) as raised:
        launch(resolve(env, None, tmp_path / "gemini-dir", host="gemini"), Launch())

    assert "the node PATH finds here, ./node, is the set's own" in raised.value.message


@pytest.mark.parametrize("verb", ["env", "launch"])
def test_a_missing_dir_the_found_set_chose_is_refused_before_any_install_is_offered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, verb: str
) -> None:
    """helper-66: its `[target] agent_dir` missing, `ext launch` said exit 4 with `ext install
    --create` as the fix: an install trusts the set before the risk was said."""
    root, _ = repository(tmp_path, '[target]\nagent_dir = "not-yet"\n')
    monkeypatch.chdir(root)
    for name in ("PI_CODING_AGENT_DIR", "EXT_AGENT_DIR", "EXT_SET"):
        monkeypatch.delenv(name, raising=False)

    done = CliRunner().invoke(app, [verb])

    assert done.exit_code == 3, done.output
    said, _, fix = done.stderr.partition("fix: ")
    assert "ext never installed it, and its [target] agent_dir would have pi load" in said
    # helper-70: the risk said first, the fix that works pasted (naming it fails on the dir)
    assert fix.startswith("if you trust that set, install it, which makes that dir: `ext --set ")
    assert "install --create`" in fix and f"{verb}`" not in fix
    assert not (root / "not-yet").exists()


def test_launch_names_a_pi_only_a_relative_entry_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-78: doctor said `only ./pi, through a relative entry`, launch "not found"."""
    root, _ = repository(tmp_path, "")
    build_tree(root, {"pi": "#!/bin/sh\ntouch ran\n"})
    (root / "pi").chmod(0o755)
    monkeypatch.chdir(root)  # the folder a relative entry names
    path = f"{tmp_path / 'nothing'}:"
    env = Env(environ={**os.environ, "PATH": path, "EXT_SET": str(root)}, cwd=root)
    agent = build_tree(tmp_path / "agent", {"extensions": None})

    with pytest.raises(ExtError) as raised:
        launch(resolve(env, None, agent), Launch())

    assert raised.value.message == (
        "pi was not found on PATH (only ./pi, through a relative entry, which ext never runs)"
    )
    assert not (root / "ran").exists()
