"""End-to-end fixtures: the installed `ext` and the real pi, run as subprocesses in a fresh HOME."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.pis import RealPi, today

REPO = Path(__file__).resolve().parents[2]
EXT = Path(sys.executable).with_name("ext")

Run = Callable[..., subprocess.CompletedProcess[str]]


def find_pi() -> Path | None:
    """Today's pi as scripts/setup installs it (None when it is not), for tests that need a pi
    but not a particular one."""
    pi = today()
    return pi.bin if pi.installed else None


@pytest.fixture
def pi_bin(real_pi: RealPi) -> Path:
    """The real pi's bin; in CI a missing pi fails the test instead of skipping it."""
    return real_pi.bin


@pytest.fixture
def e2e_env(isolated_home: Path, tmp_path: Path, request: pytest.FixtureRequest) -> dict[str, str]:
    """A process environment whose HOME and XDG dirs are the test's own, with the test's pi
    (its `real_pi`, else today's) and the Node it needs first on PATH."""
    keep = ("PATH", "LANG", "LC_ALL", "TERM", "SYSTEMROOT", "TMPDIR", "NODE_COMPILE_CACHE")
    keep += ("JITI_FS_CACHE",)
    env = {k: v for k, v in os.environ.items() if k in keep}
    env["HOME"] = str(isolated_home)
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[var] = os.environ[var]
    pi = request.getfixturevalue("real_pi") if "real_pi" in request.fixturenames else today()
    env["PATH"] = pi.path(env.get("PATH", ""))
    env["EXT_NO_UPDATE_CHECK"] = "1"
    env["NO_COLOR"] = "1"
    return env


@pytest.fixture
def ext(e2e_env: dict[str, str], tmp_path: Path) -> Run:
    """Run the installed `ext` with the test's environment."""

    def run(
        *args: str, cwd: Path | None = None, check: bool = False, **kw: object
    ) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            [str(EXT), *args],
            cwd=cwd or tmp_path,
            env=kw.pop("env", e2e_env),  # type: ignore[arg-type]
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        if check and proc.returncode != 0:
            raise AssertionError(
                f"ext {' '.join(args)} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
            )
        return proc

    return run


@pytest.fixture
def pi(pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path) -> Run:
    """Run the real pi against an agent dir: pi(agent_dir, *args)."""

    def run(agent_dir: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        env = {**e2e_env, "PI_CODING_AGENT_DIR": str(agent_dir)}
        return subprocess.run(
            [str(pi_bin), *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )

    return run


def loader_view(agent: Path, cwd: Path, env: dict[str, str]) -> Any:
    """What pi's own loader (the pi on env's PATH) loads from agent, started in cwd."""
    import shutil

    from installer.host.loader import Unavailable, ask
    from installer.host.pi import find_host

    pi = shutil.which("pi", path=env["PATH"])
    assert pi is not None
    views = ask(
        find_host(str(pi), env["PATH"]),
        [(agent, cwd)],
        env={**env, "PI_CODING_AGENT_DIR": str(agent)},
    )
    assert not isinstance(views, Unavailable), views.reason
    (view,) = views
    return view
