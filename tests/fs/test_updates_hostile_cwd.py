"""Update checks run nothing of the folder ext runs in (helper-69, a cloned repository): npm,
pip and uv each run in a folder of ext's own (npm read the repository's `.npmrc`, `-m pip`
imported its `pip/`), git runs in no set ext has not installed (its repository's config can
name commands), and a FIFO at `.git/HEAD` holds nothing up."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.updates.fetch import ask_pip, ask_uv, run_npm
from tests.helpers import build_tree


def recorder(folder: Path, name: str, log: Path) -> Path:
    """A program that writes its argv and working folder to `log`."""
    tool = build_tree(folder, {name: f'#!/bin/sh\necho "$PWD|$*" >> "{log}"\n'}) / name
    tool.chmod(0o755)
    return tool


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = build_tree(tmp_path / "repo", {".npmrc": "registry=http://127.0.0.1:1/evil/\n"})
    monkeypatch.chdir(root)
    return root


def test_npm_runs_in_a_folder_of_its_own(repo: Path, tmp_path: Path) -> None:
    log = tmp_path / "log"
    tools = recorder(tmp_path / "tools", "npm", log).parent
    run_npm(["view", "x", "version"], {"PATH": str(tools)}, 10)
    cwd, _, argv = log.read_text().partition("|")
    assert cwd != str(repo) and not cwd.startswith(str(repo) + os.sep), cwd
    assert argv.startswith("view x version")


def test_pip_runs_with_P_in_a_folder_of_its_own(repo: Path, tmp_path: Path) -> None:
    log = tmp_path / "log"
    python = recorder(tmp_path / "tools", "python", log)
    ask_pip(str(python), {"PATH": os.environ["PATH"]}, 10)
    cwd, _, argv = log.read_text().partition("|")
    assert not os.path.realpath(cwd).startswith(os.path.realpath(repo)), cwd
    assert argv.startswith("-P -m pip index versions extset")


def test_uv_runs_in_a_folder_of_its_own(repo: Path, tmp_path: Path) -> None:
    log = tmp_path / "log"
    tools = recorder(tmp_path / "tools", "uv", log).parent
    ask_uv("python3", {"PATH": str(tools)}, 10)
    cwd, _, argv = log.read_text().partition("|")
    assert not os.path.realpath(cwd).startswith(os.path.realpath(repo)), cwd
    assert argv.startswith("pip compile -")


@pytest.mark.parametrize("how", ["fifo", "zero", "huge", "sha"])
def test_a_head_that_is_no_file_is_no_checkout(tmp_path: Path, how: str) -> None:
    """In a child with a time limit: the old reader waited on the FIFO for good, and read
    /dev/zero until memory ran out (helper-69, helper-71)."""
    import subprocess
    import sys

    git = build_tree(tmp_path / "set", {".git/refs/heads": None}) / ".git"
    if how == "fifo":
        os.mkfifo(git / "HEAD")
    elif how == "zero":
        (git / "HEAD").symlink_to("/dev/zero")
    else:
        (git / "HEAD").write_text("a" * 40 + "\n" if how == "sha" else "a" * 100_000)
    where = str(tmp_path / "set")
    ask = "from pathlib import Path; from installer.updates.gitrefs import head_sha; "
    ask += f"print(head_sha(Path({where!r})))"
    done = subprocess.run(
        [sys.executable, "-c", ask], capture_output=True, text=True, timeout=20, check=True
    )
    assert done.stdout.strip() == ("a" * 40 if how == "sha" else "None")


def test_git_runs_in_no_set_ext_has_not_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-69: the repository's `remote.origin.uploadpack` ran on `ext update --check`."""
    import subprocess

    from installer.commands.updates import check
    from installer.ground.context import Env, resolve
    from installer.host.set_command import SET_WITHHELD

    marker = tmp_path / "ran"
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    repo = build_tree(tmp_path / "repo", {"extset.toml": '[set]\nname = "r"\n'})
    for args in (
        ["init", "-q"],
        ["remote", "add", "origin", str(bare)],
        ["config", "remote.origin.uploadpack", f"touch {marker}; git-upload-pack"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "a"],
        ["push", "-q", "-u", "origin", "HEAD"],
    ):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)
    marker.unlink(missing_ok=True)  # the push above ran it, by the user's own hand
    monkeypatch.setenv("EXT_INDEX_URL", "http://127.0.0.1:9")
    agent = build_tree(tmp_path / "agent", {"extensions": None})

    report = check(resolve(Env(environ=dict(os.environ), cwd=repo), None, agent))

    row = next(r for r in report.results if r.name == "set")
    assert row.detail == SET_WITHHELD
    assert not marker.exists()
    # helper-70: doctor said "not checked yet", with `ext update --check` as its fix
    monkeypatch.chdir(repo)
    doctor = CliRunner().invoke(app, ["--agent-dir", str(agent), "--json", "doctor"])
    rows = [r for r in json.loads(doctor.stdout)["checks"] if r["id"] == "updates.set"]
    assert [(r["message"], r.get("fix")) for r in rows] == [(f"the set: {SET_WITHHELD}", None)]


@pytest.mark.parametrize("trusted", [False, True], ids=["withheld", "--trust-set"])
def test_the_sets_own_pi_runs_only_with_trust_set(
    trusted: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A set not installed here whose `[host] command` is its own file: `update --check`
    never ran it, yet said `it printed no version`, and its fix named --trust-set, which
    `ext update` refused as no option of its own."""
    log = tmp_path / "ran"
    repo = build_tree(
        tmp_path / "repo",
        {"extset.toml": '[set]\nname = "r"\n[host]\ncommand = "bin/pi"\n', "extensions": None},
    )
    recorder(repo / "bin", "pi", log)
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    monkeypatch.chdir(repo)
    monkeypatch.setenv("EXT_INDEX_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("npm_config_registry", "http://127.0.0.1:9")
    flags = ["--trust-set"] if trusted else []

    done = CliRunner().invoke(app, ["--agent-dir", str(agent), "update", "--check", *flags])

    assert done.exit_code == 0, done.output
    assert log.exists() == trusted
    said = f"pi: not checked: {repo / 'bin' / 'pi'} is what the set runs, and the set is not "
    assert (said in done.output) != trusted, done.output
    assert "printed no version" not in done.output or trusted


def test_the_refresh_finds_ext_from_any_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """helper-71: with -P and ext's cache folder as its cwd, a source tree run as
    `PYTHONPATH=.` found no ext, and the refresh failed unseen."""
    import installer
    from installer.updates.notice import _finding_ext

    monkeypatch.setenv("PYTHONPATH", f".{os.pathsep}lib")
    found = _finding_ext()["PYTHONPATH"].split(os.pathsep)
    assert found[0] == str(Path(installer.__file__).resolve().parent.parent)
    assert found[1:] == [os.path.abspath("."), os.path.abspath("lib")]
