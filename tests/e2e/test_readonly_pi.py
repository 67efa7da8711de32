"""Read-only commands write nothing in the agent dir nor in the user's npm folders, on each real
pi: `doctor --deep` starts pi's loader and `pi -p` (which makes auth.json, and on 1.x
models-store.json, for itself), `list`, `history`, `update --check` (which runs npm)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.conftest import Run
from tests.helpers import snapshot
from tests.pis import RealPi


def test_read_only_commands_leave_the_agent_dir_and_npm_folders_as_they_were(
    ext: Run, real_pi: RealPi, tmp_path: Path, e2e_env: dict[str, str], isolated_home: Path
) -> None:
    agent = tmp_path / "agent"
    at = ("--agent-dir", str(agent))
    ext(*at, "install", "--create", "--yes", check=True)
    before = snapshot(agent)
    dead = "http://127.0.0.1:9/"  # nothing listens: the check asks and gets no answer
    temp = tmp_path / "temp"  # pi's extension loader would keep what it compiles in temp/jiti
    temp.mkdir()
    env = {**e2e_env, "EXT_INDEX_URL": dead, "npm_config_registry": dead, "TMPDIR": str(temp)}
    del env["NODE_COMPILE_CACHE"]  # the suite's shared one (tests/conftest.py): none named here
    del env["JITI_FS_CACHE"]  # nor a jiti cache asked for

    deep = ext(*at, "--json", "doctor", "--deep", env=env)  # every check: the loader's too
    for args in (("list",), ("history",), ("update", "--check")):
        ext(*at, *args, env=env, check=True)

    ran = {c["id"] for c in json.loads(deep.stdout)["checks"]}
    assert {"host.load", "loader", "command.pi"} <= ran, ran  # pi -p and pi's loader both ran
    assert snapshot(agent) == before
    assert not (isolated_home / ".npm").exists()  # no debug log, no notifier stamp, no cache
    assert sorted(p.name for p in temp.iterdir()) == []  # nothing left in the temp folder
