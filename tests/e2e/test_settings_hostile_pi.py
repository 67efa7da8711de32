"""A settings.json pi would hang on (a FIFO) or read without end (/dev/zero): a deep doctor
does not start pi on it, and `ext launch` refuses to, so nothing hangs and pi leaves no lock."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.e2e.conftest import Run
from tests.helpers import build_tree

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("real_pi")]


@pytest.mark.parametrize("spoil", ["fifo", "dev-zero"])
def test_doctor_deep_and_launch_do_not_start_pi_on_a_settings_json_it_would_hang_on(
    ext: Run, tmp_path: Path, spoil: str
) -> None:
    """A trial (helper-23): doctor --deep ran 77 s on /dev/zero and was killed on a FIFO,
    leaving pi's loader running and settings.json.lock in the agent dir; launch hung too."""
    set_root = build_tree(tmp_path / "set", {"extensions/hello.ts": "export default () => {};\n"})
    agent = tmp_path / "agent"
    at = ("--set", str(set_root), "--agent-dir", str(agent))
    ext(*at, "install", "--create", "--yes", check=True)
    settings = agent / "settings.json"
    settings.unlink(missing_ok=True)
    if spoil == "fifo":
        os.mkfifo(settings)
    else:
        settings.symlink_to("/dev/zero")

    deep = ext(*at, "--json", "doctor", "--deep")
    rows = {c["id"]: c for c in json.loads(deep.stdout)["checks"]}
    assert rows["host.load"]["message"].startswith("not checked: pi was not started:")
    assert not (agent / "settings.json.lock").exists()

    launched = ext(*at, "launch", "--", "--version")
    assert launched.returncode == 1
    assert "not starting pi:" in launched.stderr and "fix: move it aside: mv" in launched.stderr
