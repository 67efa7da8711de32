"""Update checks run nothing of the folder ext runs in (helper-69, a cloned repository): npm,
pip and uv each run in a folder of ext's own (npm read the repository's `.npmrc`, `-m pip`
imported its `pip/`), git runs in no set ext has not installed (its repository's config can
name commands), and a FIFO at `.git/HEAD` holds nothing up."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from installer.updates.fetch import ask_pip, ask_uv, run_npm
from installer.updates.gitrefs import head_sha
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
    assert cwd != str(repo), cwd
    assert argv.startswith("-P -m pip index versions extset")


def test_uv_runs_in_a_folder_of_its_own(repo: Path, tmp_path: Path) -> None:
    log = tmp_path / "log"
    tools = recorder(tmp_path / "tools", "uv", log).parent
    ask_uv("python3", {"PATH": str(tools)}, 10)
    cwd, _, argv = log.read_text().partition("|")
    assert cwd != str(repo), cwd
    assert argv.startswith("pip compile -")


@pytest.mark.parametrize("how", ["fifo", "zero"])
def test_a_head_that_is_no_file_is_no_checkout(tmp_path: Path, how: str) -> None:
    git = build_tree(tmp_path / "set", {".git/refs/heads": None}) / ".git"
    if how == "fifo":
        os.mkfifo(git / "HEAD")
    else:
        (git / "HEAD").symlink_to("/dev/zero")
    start = time.monotonic()
    assert head_sha(tmp_path / "set") is None
    assert time.monotonic() - start < 5


def test_git_runs_in_no_set_ext_has_not_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-69: the repository's `remote.origin.uploadpack` ran on `ext update --check`."""
    import subprocess

    from installer.commands.updates import SET_WITHHELD, check
    from installer.ground.context import Env, resolve

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
