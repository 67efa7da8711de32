"""Register mode end to end: the set as a local-path package, as the real pi sees it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO, Run
from tests.e2e.test_install_pi import bundled_flags

pytestmark = pytest.mark.e2e


def _help(pi: Run, agent: Path) -> str:
    done = pi(agent, "--help")
    return done.stdout + done.stderr


def test_register_skip_and_uninstall_as_pi_sees_them(ext: Run, pi: Run, tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    flags = bundled_flags()
    common = ("--agent-dir", str(agent), "--create")

    ext("install", "--mode", "register", "--yes", *common, cwd=REPO, check=True)
    listed = pi(agent, "list")
    assert str(REPO) in listed.stdout + listed.stderr
    help_text = _help(pi, agent)
    for names in flags.values():
        for flag in names:
            assert f"--{flag}" in help_text
    # No link of the set's own: only ext's /ext and its session recorder (the bundled set has a
    # process guard).
    own = ["ext-command.ts", "ext-sessions.ts"]
    assert sorted(p.name for p in (agent / "extensions").iterdir()) == own

    ext("install", "--skip", "notify", "--yes", "--agent-dir", str(agent), cwd=REPO, check=True)
    settings = json.loads((agent / "settings.json").read_text())
    assert settings["packages"] == [{"source": str(REPO), "extensions": ["-extensions/notify.ts"]}]
    help_text = _help(pi, agent)
    assert "--notify-min-secs" not in help_text
    others = [f for name, names in flags.items() if name != "notify.ts" for f in names]
    assert others and all(f"--{f}" in help_text for f in others)

    ext("install", "--yes", "--agent-dir", str(agent), cwd=REPO, check=True)
    settings = json.loads((agent / "settings.json").read_text())
    assert settings["packages"] == [str(REPO)]  # folded back: no filter left

    ext("uninstall", "--yes", "--agent-dir", str(agent), cwd=REPO, check=True)
    listed = pi(agent, "list")
    assert "No packages" in listed.stdout + listed.stderr
    assert not (agent / "settings.json.lock").exists()
