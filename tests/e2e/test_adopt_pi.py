"""Hand-placed extensions brought under ext, end to end: init, adopt --all, the real pi."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.e2e.conftest import Run
from tests.helpers import build_tree, snapshot

pytestmark = pytest.mark.e2e


def _extension(flag: str) -> str:
    return (
        'import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";\n'
        "export default function (pi: ExtensionAPI): void {\n"
        f'\tpi.registerFlag("{flag}", {{ description: "placed by hand", type: "boolean" }});\n'
        "}\n"
    )


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    """A fresh agent dir with two extensions copied in by hand: a file and a folder."""
    return build_tree(
        tmp_path / "agent",
        {
            "extensions/alpha.ts": _extension("alpha-by-hand"),
            "extensions/beta/index.ts": _extension("beta-by-hand"),
        },
    )


def _help(pi: Run, agent: Path) -> str:
    done = pi(agent, "--help")  # pi prints its help on stderr
    return done.stdout + done.stderr


def test_adopted_extensions_still_load_through_links_into_the_set(
    ext: Run, pi: Run, agent: Path, tmp_path: Path
) -> None:
    before = _help(pi, agent)
    assert "--alpha-by-hand" in before and "--beta-by-hand" in before

    ext("init", "myset", "--yes", "--no-git", check=True)
    root = tmp_path / "myset"
    assert (root / "extset.toml").is_file()

    where = ("--set", str(root), "--agent-dir", str(agent))
    adopted = ext(*where, "adopt", "--all", "--yes", check=True)
    assert "done: 2 linked, 2 backed up, 2 copied into the set" in adopted.stdout

    for rel in ("extensions/alpha.ts", "extensions/beta"):
        assert (agent / rel).is_symlink()
        assert os.readlink(agent / rel) == str(root / rel)
    help_text = _help(pi, agent)
    assert "--alpha-by-hand" in help_text and "--beta-by-hand" in help_text

    report = json.loads(ext(*where, "doctor", "--json", "--no-network").stdout)
    bad = [c for c in report["checks"] if c["level"] in ("warn", "error")]
    assert report["ok"] and not bad, bad


def test_adopt_then_undo_gives_pi_its_own_files_back(
    ext: Run, pi: Run, agent: Path, tmp_path: Path
) -> None:
    before = snapshot(agent / "extensions")
    ext("init", "myset", "--yes", "--no-git", check=True)
    root = tmp_path / "myset"
    set_before = snapshot(root)
    where = ("--set", str(root), "--agent-dir", str(agent))
    ext(*where, "adopt", "--all", "--yes", check=True)
    ext(*where, "undo", "--yes", check=True)
    assert snapshot(agent / "extensions") == before
    assert snapshot(root) == set_before
    help_text = _help(pi, agent)
    assert "--alpha-by-hand" in help_text and "--beta-by-hand" in help_text


def test_the_example_of_a_new_set_loads_in_pi(ext: Run, pi: Run, tmp_path: Path) -> None:
    ext("init", "starter", "--yes", "--no-git", check=True)
    root, agent = tmp_path / "starter", tmp_path / "fresh-agent"
    ext("--set", str(root), "--agent-dir", str(agent), "install", "--create", "--yes", check=True)
    assert "--starter-hello" in _help(pi, agent)
    tsconfig = json.loads((root / "tsconfig.json").read_text())
    ((target,),) = tsconfig["compilerOptions"]["paths"].values()  # the installed pi's package
    assert (Path(target) / "package.json").is_file()
