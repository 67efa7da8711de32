"""The main job end to end: the bundled set into the isolated agent dir, loaded by the real pi."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO, Run

pytestmark = pytest.mark.e2e

_FLAG = re.compile(r"""registerFlag\(\s*["']([^"']+)["']""")


def bundled_flags() -> dict[str, list[str]]:
    """Each bundled extension's flags, read from its source."""
    out: dict[str, list[str]] = {}
    for entry in sorted((REPO / "extensions").iterdir()):
        files = sorted(entry.rglob("*.ts")) if entry.is_dir() else [entry]
        flags = [f for path in files for f in _FLAG.findall(path.read_text())]
        if flags:
            out[entry.name] = flags
    return out


def isolated_agent_dir(ext: Run) -> Path:
    data = json.loads(ext("--json", "env", cwd=REPO, check=True).stdout)
    return Path(data["agent_dir"])


def test_bundled_set_installs_and_loads_in_the_real_pi(
    ext: Run, pi: Run, isolated_home: Path
) -> None:
    flags = bundled_flags()
    assert len(flags) >= 2, "the bundled set should carry extensions that register flags"

    first = ext("install", "--yes", cwd=REPO, check=True)
    assert "done:" in first.stdout

    agent = isolated_agent_dir(ext)
    assert agent.is_relative_to(isolated_home), "the isolated default lives under the test's HOME"

    listing = json.loads(ext("--json", "list", cwd=REPO, check=True).stdout)
    assert listing["items"], listing
    assert {i["state"] for i in listing["items"]} == {"enabled"}, listing["items"]

    again = json.loads(ext("--json", "install", "--yes", cwd=REPO, check=True).stdout)
    assert again["changed"] is False
    assert {a["action"] for a in again["actions"]} <= {"keep", "skip"}

    help_text = _help(pi, agent)
    for name, names in flags.items():
        for flag in names:
            assert f"--{flag}" in help_text, f"{name}: --{flag} missing from pi --help"

    load = pi(agent, "-p", "x", "--offline", "--no-session", timeout=180)
    output = load.stdout + load.stderr
    assert "Failed to load extension" not in output, output


def test_uninstall_leaves_pi_without_the_set(ext: Run, pi: Run) -> None:
    ext("install", "--yes", cwd=REPO, check=True)
    agent = isolated_agent_dir(ext)
    ext("uninstall", "--yes", cwd=REPO, check=True)
    help_text = _help(pi, agent)
    for names in bundled_flags().values():
        for flag in names:
            assert f"--{flag}" not in help_text


def _help(pi: Run, agent: Path) -> str:
    """pi prints its help on stderr."""
    done = pi(agent, "--help")
    return done.stdout + done.stderr
