"""A set checkout against a local bare upstream: commits behind, from `ls-remote`, no fetch."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from installer.updates.check import check_set
from installer.updates.gitrefs import head_sha
from installer.updates.upstream import upstream_state


@pytest.fixture(autouse=True)
def git_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text("[init]\n\tdefaultBranch = main\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "Test")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "test@example.invalid")


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(cwd), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def commit(repo: Path, name: str) -> str:
    (repo / name).write_text(name)
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", name)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repos(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(upstream bare repo, the set's clone, another clone that pushes)."""
    upstream = tmp_path / "upstream.git"
    subprocess.run(["git", "init", "-q", "--bare", str(upstream)], check=True)
    seed = tmp_path / "seed"
    subprocess.run(
        ["git", "clone", "-q", str(upstream), str(seed)], check=True, capture_output=True
    )
    commit(seed, "extset.toml")
    git(seed, "push", "-q", "origin", "main")
    the_set = tmp_path / "set"
    subprocess.run(["git", "clone", "-q", str(upstream), str(the_set)], check=True)
    return upstream, the_set, seed


def push_from(other: Path, *names: str) -> str:
    for name in names:
        sha = commit(other, name)
    git(other, "push", "-q", "origin", "main")
    return sha


def test_up_to_date(repos: tuple[Path, Path, Path]) -> None:
    _, the_set, _ = repos
    result = check_set(the_set)
    assert (result.status, result.hint) == ("up-to-date", None)


def test_one_commit_behind_with_hint(repos: tuple[Path, Path, Path]) -> None:
    _, the_set, other = repos
    before = git(the_set, "rev-parse", "HEAD")
    pushed = push_from(other, "extensions.ts")
    result = check_set(the_set)
    assert result.status == "update-available"
    assert result.detail == "1 commit behind"
    assert result.hint == f"git -C {the_set} pull && ext install"
    assert (result.current, result.latest) == (before, pushed)
    assert "1 commit behind; run: git -C" in result.line()
    # Nothing was fetched into the set.
    assert (
        subprocess.run(
            ["git", "-C", str(the_set), "cat-file", "-e", pushed], capture_output=True, check=False
        ).returncode
        != 0
    )


def test_counts_locally_when_already_fetched(repos: tuple[Path, Path, Path]) -> None:
    _, the_set, other = repos
    push_from(other, "a", "b")
    git(the_set, "fetch", "-q")
    assert upstream_state(the_set).detail == "2 commits behind"


def test_ahead_only_is_up_to_date(repos: tuple[Path, Path, Path]) -> None:
    _, the_set, _ = repos
    commit(the_set, "local-only")
    assert upstream_state(the_set).state == "up-to-date"


def test_diverged_remote_commit_unknown_here_is_behind_unknown_count(
    repos: tuple[Path, Path, Path],
) -> None:
    _, the_set, other = repos
    commit(the_set, "local-only")  # the upstream cannot count from a commit it does not have
    push_from(other, "remote-only")
    state = upstream_state(the_set)
    assert (state.state, state.behind, state.detail) == ("behind", None, "behind (unknown count)")


def test_unreachable_upstream_is_unavailable(repos: tuple[Path, Path, Path]) -> None:
    upstream, the_set, _ = repos
    upstream.rename(upstream.with_name("moved.git"))
    result = check_set(the_set)
    assert (result.status, result.hint) == ("unavailable", None)


def test_hung_upstream_times_out(
    repos: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, the_set, _ = repos
    # The ext:: transport runs a command as the remote: one that never answers.
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "protocol.ext.allow")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "always")
    git(the_set, "remote", "set-url", "origin", "ext::sleep 30")
    start = time.monotonic()
    state = upstream_state(the_set, timeout=0.5)
    assert state.state == "unavailable"
    assert time.monotonic() - start < 5


def test_no_upstream(tmp_path: Path) -> None:
    repo = tmp_path / "solo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    commit(repo, "a")
    assert upstream_state(repo).state == "no-upstream"
    assert check_set(repo).status == "not-applicable"
    # helper-62: "its branch has no upstream" came with no way on
    assert check_set(repo).line() == (
        "the set: its branch tracks no upstream, so there is nothing to check it against "
        "(`git branch --set-upstream-to REMOTE/BRANCH` in it sets one)"
    )


def test_not_a_checkout(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert check_set(plain).status == "not-applicable"
    assert check_set(None).status == "not-applicable"
    assert head_sha(plain) is None


def test_head_sha_reads_loose_packed_and_detached(repos: tuple[Path, Path, Path]) -> None:
    _, the_set, _ = repos
    sha = git(the_set, "rev-parse", "HEAD")
    assert head_sha(the_set) == sha
    git(the_set, "pack-refs", "--all")
    assert not (the_set / ".git" / "refs" / "heads" / "main").exists()
    assert head_sha(the_set) == sha
    (the_set / "sub").mkdir()
    assert head_sha(the_set / "sub") == sha
    git(the_set, "checkout", "-q", "--detach")
    assert head_sha(the_set) == sha


def test_head_sha_in_a_worktree(repos: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _, the_set, _ = repos
    worktree = tmp_path / "wt"
    git(the_set, "worktree", "add", "-q", "-b", "side", str(worktree))
    new = commit(worktree, "side-file")
    assert head_sha(worktree) == new
