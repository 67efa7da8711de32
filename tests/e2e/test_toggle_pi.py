"""ext enable/disable end to end: the real pi's --help lists exactly the flags of what is on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import Run
from tests.helpers import build_tree

pytestmark = pytest.mark.e2e

FLAGS = {"alpha": "tt-alpha", "beta": "tt-beta", "gamma": "tt-gamma"}


def extension(flag: str) -> str:
    # No import from pi at all: the set loads on either pi scope.
    options = f'{{ description: "{flag}", type: "boolean", default: false }}'
    return f'export default function (pi: any) {{\n  pi.registerFlag("{flag}", {options});\n}}\n'


def make_set(root: Path, manifest: str = "") -> Path:
    """Two file extensions and one folder extension, each registering a flag."""
    return build_tree(
        root,
        {
            "extset.toml": '[set]\nname = "toggle-e2e"\n' + manifest,
            "extensions/alpha.ts": extension(FLAGS["alpha"]),
            "extensions/beta.ts": extension(FLAGS["beta"]),
            "extensions/gamma/index.ts": extension(FLAGS["gamma"]),
        },
    )


@pytest.fixture
def where(tmp_path: Path) -> tuple[Path, Path]:
    agent = tmp_path / "agent"
    agent.mkdir()
    return make_set(tmp_path / "set"), agent


def loaded(pi: Run, agent: Path) -> set[str]:
    """The names of the set's extensions whose flag the real pi lists in --help."""
    run = pi(agent, "--help")
    text = run.stdout + run.stderr  # piped, pi prints the extension flags on stderr
    return {name for name, flag in FLAGS.items() if f"--{flag}" in text}


@pytest.mark.parametrize("mode", ["link", "register"])
def test_disable_enable_and_install_keeps_the_choice(
    ext: Run, pi: Run, where: tuple[Path, Path], mode: str
) -> None:
    set_root, agent = where
    at = ("--set", str(set_root), "--agent-dir", str(agent))
    ext(*at, "install", "--mode", mode, "--yes", check=True)
    assert loaded(pi, agent) == {"alpha", "beta", "gamma"}

    off = ext(*at, "disable", "alpha", "gamma", "--yes", check=True)
    assert "now disabled: alpha, gamma" in off.stderr
    assert loaded(pi, agent) == {"beta"}

    again = json.loads(ext(*at, "--json", "disable", "alpha", check=True).stdout)
    assert again["changed"] is False
    assert [a["action"] for a in again["actions"]] == ["keep"]

    install = json.loads(ext(*at, "--json", "install", "--yes", check=True).stdout)
    assert install["changed"] is False
    assert loaded(pi, agent) == {"beta"}

    ext(*at, "enable", "alpha", "gamma", "--yes", check=True)
    assert loaded(pi, agent) == {"alpha", "beta", "gamma"}


def test_link_mode_files_on_disk(ext: Run, where: tuple[Path, Path]) -> None:
    set_root, agent = where
    at = ("--set", str(set_root), "--agent-dir", str(agent))
    ext(*at, "install", "--yes", check=True)
    ext(*at, "disable", "alpha", "gamma", "--yes", check=True)
    assert (agent / "extensions/alpha.ts.off").is_symlink()
    assert (agent / "extensions/.off/gamma").is_symlink()
    assert not (agent / "extensions/alpha.ts").exists()
    assert not (agent / "extensions/gamma").exists()
    listing = json.loads(ext(*at, "--json", "list", check=True).stdout)
    assert {i["name"]: i["state"] for i in listing["items"]} == {
        "alpha": "disabled",
        "beta": "enabled",
        "gamma": "disabled",
    }


def test_without_a_terminal_or_yes(ext: Run, where: tuple[Path, Path]) -> None:
    set_root, agent = where
    at = ("--set", str(set_root), "--agent-dir", str(agent))
    ext(*at, "install", "--yes", check=True)
    toggle = ext(*at, "toggle")
    assert toggle.returncode == 2
    said = toggle.stderr.replace("\n", " ")
    assert f"--agent-dir {agent} toggle --on NAME,NAME --off NAME --yes" in said  # as run
    refused = ext(*at, "disable", "alpha")
    assert refused.returncode == 3 and "--yes" in refused.stderr
    assert (agent / "extensions/alpha.ts").is_symlink()
    unknown = ext(*at, "disable", "alfa", "--yes")
    assert unknown.returncode == 2 and "alpha" in unknown.stderr
