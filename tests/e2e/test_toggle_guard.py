"""The process guard end to end: a live host session started with the flag makes `ext disable`
refuse; once it is gone the same command succeeds. Sessions are known from the registry that
`ext launch` writes before it execs the host, and that ext's recorder writes from inside pi.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from installer.agent.recorder import RECORDER
from installer.agent.sessions import sessions_dir
from tests.e2e.conftest import Run
from tests.e2e.test_toggle_pi import make_set

pytestmark = pytest.mark.e2e

GUARD = """
[guards.alpha]
process = "--tt-alpha"
reason = "alpha's tools are bound to the session"
"""

# A stand-in host started the way `ext launch` starts one: record the session, then exec the
# host in the same process. The host says "ready" and lives until its stdin closes.
STAND_IN = """
import os, sys
from pathlib import Path
from installer.agent.sessions import write_session_record
write_session_record(Path(sys.argv[1]), ["stand-in", *sys.argv[2:]])
host = "import sys; print('ready', flush=True); sys.stdin.read()"
os.execv(sys.executable, [sys.executable, "-c", host])
"""


@pytest.fixture
def where(tmp_path: Path) -> tuple[Path, Path]:
    agent = tmp_path / "agent"
    agent.mkdir()
    return make_set(tmp_path / "set", GUARD), agent


@pytest.fixture
def stand_in(where: tuple[Path, Path], e2e_env: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    _, agent = where
    proc = subprocess.Popen(
        [sys.executable, "-c", STAND_IN, str(agent), "--tt-alpha", "remote"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=e2e_env,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "ready\n"  # the record is written and exec is done
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def test_a_live_stand_in_host_refuses_disable_until_it_exits(
    ext: Run, where: tuple[Path, Path], stand_in: subprocess.Popen[str]
) -> None:
    set_root, agent = where
    at = ("--set", str(set_root), "--agent-dir", str(agent))
    ext(*at, "install", "--yes", check=True)
    record = sessions_dir(agent) / f"{stand_in.pid}.json"
    assert json.loads(record.read_text())["argv"] == ["stand-in", "--tt-alpha", "remote"]

    refused = ext(*at, "disable", "alpha", "--yes")
    assert refused.returncode == 3, refused.stderr
    assert f"pid {stand_in.pid}: --tt-alpha remote" in refused.stderr
    assert "alpha's tools are bound to the session" in refused.stderr
    assert "--force" in refused.stderr
    assert (agent / "extensions/alpha.ts").is_symlink()
    assert ext(*at, "disable", "beta", "--yes").returncode == 0  # unguarded ones still switch

    assert stand_in.stdin is not None
    stand_in.stdin.close()
    stand_in.wait(timeout=10)
    done = ext(*at, "disable", "alpha", "--yes")
    assert done.returncode == 0, done.stderr
    assert (agent / "extensions/alpha.ts.off").is_symlink()
    assert not record.exists(), "the stale record is cleaned"


def test_force_overrides_a_live_session_with_a_warning(
    ext: Run, where: tuple[Path, Path], stand_in: subprocess.Popen[str]
) -> None:
    set_root, agent = where
    at = ("--set", str(set_root), "--agent-dir", str(agent))
    ext(*at, "install", "--yes", check=True)
    forced = ext(*at, "disable", "alpha", "--force", "--yes")
    assert forced.returncode == 0, forced.stderr
    assert "--force: disabling alpha although a live session" in forced.stderr
    assert (agent / "extensions/alpha.ts.off").is_symlink()


def wait_for(path: Path, child: pexpect.spawn, timeout: float) -> bool:
    """Poll for `path`, draining pi's screen output so it never blocks on a full terminal."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            return True
        with contextlib.suppress(pexpect.TIMEOUT):
            child.read_nonblocking(65536, timeout=0.2)
    return path.exists()


def test_the_recorder_in_the_real_pi(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], where: tuple[Path, Path], tmp_path: Path
) -> None:
    set_root, agent = where
    at = ("--set", str(set_root), "--agent-dir", str(agent))
    ext(*at, "install", "--yes", check=True)
    assert (agent / RECORDER).is_symlink()

    env = {**e2e_env, "PI_CODING_AGENT_DIR": str(agent), "TERM": "xterm-256color"}
    child = pexpect.spawn(
        str(pi_bin),
        ["--tt-alpha", "--offline"],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        dimensions=(40, 120),
        timeout=30,
    )
    try:
        record = sessions_dir(agent) / f"{child.pid}.json"
        assert wait_for(record, child, timeout=90), "pi never wrote its session record"
        data = json.loads(record.read_text())
        assert data["writer"] == "ext-sessions" and "--tt-alpha" in data["argv"]

        refused = ext(*at, "disable", "alpha", "--yes")
        assert refused.returncode == 3, refused.stderr
        assert f"pid {child.pid}" in refused.stderr

        child.sendcontrol("d")  # quit: pi emits session_shutdown, the recorder removes it
        child.expect(pexpect.EOF, timeout=60)
    finally:
        child.close(force=True)
    assert not record.exists()
    done = ext(*at, "disable", "alpha", "--yes")
    assert done.returncode == 0, done.stderr


def test_sessions_of_plain_pi_without_the_flag_do_not_count(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], where: tuple[Path, Path], tmp_path: Path
) -> None:
    set_root, agent = where
    at = ("--set", str(set_root), "--agent-dir", str(agent))
    ext(*at, "install", "--yes", check=True)
    env = {**e2e_env, "PI_CODING_AGENT_DIR": str(agent), "TERM": "xterm-256color"}
    child = pexpect.spawn(
        str(pi_bin), ["--offline"], cwd=str(tmp_path), env=env, encoding="utf-8", timeout=30
    )
    try:
        record = sessions_dir(agent) / f"{child.pid}.json"
        assert wait_for(record, child, timeout=90)
        assert ext(*at, "disable", "alpha", "--yes").returncode == 0
    finally:
        child.sendcontrol("d")
        child.expect(pexpect.EOF, timeout=60)
        child.close(force=True)
    assert not os.path.exists(record)
