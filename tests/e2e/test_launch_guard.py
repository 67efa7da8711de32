"""A session started with `ext launch -- --flag` holds a process guard until it exits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import EXT, Run
from tests.helpers import build_tree

pytestmark = pytest.mark.e2e

HOST = f"""#!{sys.executable}
import os, sys
if "--version" in sys.argv:
    print("0.73.1")
    sys.exit(0)
print("ready", os.getpid(), os.environ.get("PI_CODING_AGENT_DIR"), *sys.argv[1:], flush=True)
sys.stdin.read()  # a live session until the test closes our stdin
"""


def test_a_launched_session_with_the_flag_makes_disable_refuse(
    ext: Run, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    host = tmp_path / "bin" / "fake-pi"
    build_tree(tmp_path / "bin", {"fake-pi": HOST})
    host.chmod(0o755)
    manifest = (
        f'[host]\ncommand = "{host}"\n'
        '[guards.alpha]\nprocess = "--the-flag"\nreason = "alpha drives this session"\n'
    )
    the_set = build_tree(
        tmp_path / "set",
        {"extset.toml": manifest, "extensions/alpha.ts": "export default () => {};"},
    )
    agent = tmp_path / "agent"
    agent.mkdir()
    common = ("--set", str(the_set), "--agent-dir", str(agent))
    ext(*common, "install", "--yes", check=True)

    session = subprocess.Popen(
        [str(EXT), *common, "launch", "--", "--the-flag"],
        env=e2e_env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert session.stdin is not None and session.stdout is not None
    try:
        ready = session.stdout.readline().split()
        assert ready[:2] == ["ready", str(session.pid)], ready  # exec kept ext's pid
        assert ready[2] == str(agent)
        refused = ext(*common, "disable", "alpha", "--yes")
        assert refused.returncode == 3, refused.stderr
        assert "alpha drives this session" in refused.stderr
        assert (agent / "extensions" / "alpha.ts").is_symlink()
    finally:
        session.stdin.close()
        session.wait(timeout=30)

    done = ext(*common, "disable", "alpha", "--yes")
    assert done.returncode == 0, done.stderr
    assert os.path.islink(agent / "extensions" / "alpha.ts.off")
