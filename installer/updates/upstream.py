"""How far a set checkout is behind its upstream, without fetching into it.

`git ls-remote` names the upstream's commit; the count comes from the checkout
when it already has that commit, else from the upstream itself when it is a
local repository. Otherwise the set is "behind (unknown count)": counting would
need the new objects, and an update check must not write into the user's repo.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

GIT_TIMEOUT = 10.0


@dataclass(frozen=True)
class UpstreamState:
    """A set checkout against its upstream branch; `behind` is None when the count is unknown."""

    state: str  # "up-to-date" | "behind" | "not-a-checkout" | "no-upstream" | "unavailable"
    local: str | None = None
    remote: str | None = None
    behind: int | None = None

    @property
    def detail(self) -> str:
        """A short human description."""
        if self.state == "behind":
            if self.behind is None:
                return "behind (unknown count)"
            return f"{self.behind} commit{'s' if self.behind != 1 else ''} behind"
        return {
            "up-to-date": "up to date with its upstream",
            "not-a-checkout": "not a git checkout on a branch, so not checked",
            # helper-62: said with no way on, it read as a fault to fix
            "no-upstream": (
                "its branch tracks no upstream, so there is nothing to check it against "
                "(`git branch --set-upstream-to REMOTE/BRANCH` in it sets one)"
            ),
        }.get(self.state, "could not reach its upstream")


def upstream_state(
    set_dir: Path, *, timeout: float = GIT_TIMEOUT, env: Mapping[str, str] | None = None
) -> UpstreamState:
    """Compare the set's branch with its upstream's branch (one `ls-remote`, no fetch)."""
    git = _Git(set_dir, timeout, env)
    branch = git("symbolic-ref", "-q", "HEAD")
    if not branch:
        return UpstreamState("not-a-checkout")
    fmt = "%(objectname) %(upstream:remotename) %(upstream:remoteref)"
    fields = (git("for-each-ref", f"--format={fmt}", branch) or "").split()
    if len(fields) != 3:
        return UpstreamState("no-upstream", local=fields[0] if fields else None)
    local, remote_name, remote_ref = fields
    remote = _remote_sha(git("ls-remote", "--exit-code", remote_name, remote_ref), remote_ref)
    if remote is None:
        return UpstreamState("unavailable", local=local)
    if remote == local:
        return UpstreamState("up-to-date", local, remote, 0)
    known = git("cat-file", "-e", f"{remote}^{{commit}}") is not None
    behind = _count(git, local, remote) if known else None
    if behind is None:
        behind = _count_in_local_upstream(git, remote_name, local, remote)
    if behind == 0:
        return UpstreamState("up-to-date", local, remote, 0)  # ahead of the upstream, not behind
    return UpstreamState("behind", local, remote, behind)


def _remote_sha(listing: str | None, ref: str) -> str | None:
    for line in (listing or "").splitlines():
        sha, _, name = line.partition("\t")
        if name == ref:
            return sha
    return None


def _count(git: _Git, local: str, remote: str, where: Path | None = None) -> int | None:
    out = git("rev-list", "--count", f"{local}..{remote}", where=where)
    return int(out) if out and out.isdigit() else None


def _count_in_local_upstream(git: _Git, remote_name: str, local: str, remote: str) -> int | None:
    """Count in the upstream repository itself when it is a folder on this machine."""
    url = git("ls-remote", "--get-url", remote_name)
    if not url or ("://" in url and not url.startswith("file://")):
        return None
    path = Path(url.removeprefix("file://"))
    if not path.is_absolute():
        path = git.cwd / path
    if not path.is_dir():
        return None  # `host:path` scp syntax, or gone
    return _count(git, local, remote, where=path)


class _Git:
    """Run git in a folder with a timeout; stdout, or None on any failure."""

    def __init__(self, cwd: Path, timeout: float, env: Mapping[str, str] | None) -> None:
        self.cwd = cwd
        self.timeout = timeout
        base = dict(os.environ if env is None else env)
        # Never prompt: a credential or passphrase prompt would hang a check with no terminal.
        base.update(GIT_TERMINAL_PROMPT="0", GCM_INTERACTIVE="never", LC_ALL="C")
        from installer.ground.which import for_children

        self.env = for_children(base)  # `git` is looked up on this PATH: no `./git` (helper-77)

    def __call__(self, *args: str, where: Path | None = None) -> str | None:
        import subprocess

        try:
            proc = subprocess.Popen(
                ["git", "-C", str(where or self.cwd), *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=self.env,
                text=True,
                start_new_session=True,  # so a timeout can end ssh and helpers too
            )
        except OSError:
            return None
        try:
            out, _ = proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            proc.communicate()
            return None
        return out.strip() if proc.returncode == 0 else None


def _kill_group(pid: int) -> None:
    import signal

    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
