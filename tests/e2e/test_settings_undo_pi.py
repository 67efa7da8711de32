"""`ext install`, then pi writes settings.json itself (its first start records
lastChangelogVersion), then `ext undo`: the undo succeeds, takes back ext's seed and keeps
pi's key. pi's own SettingsManager does the writing, as it does at a first start."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import Run
from tests.helpers import build_tree
from tests.pis import RealPi

pytestmark = pytest.mark.e2e

PI_WRITES = """
const [pkg, cwd, agent, version] = process.argv.slice(1);
const { SettingsManager } = await import(pkg);
const settings = SettingsManager.create(cwd, agent);
settings.setLastChangelogVersion(version);
await settings.flush();
"""


def test_undo_after_pi_wrote_settings_keeps_pis_key(
    ext: Run, real_pi: RealPi, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "s"\n[settings.seed]\nquietStartup = true\n',
            "extensions/a.ts": "export default function () {}\n",
        },
    )
    agent = build_tree(tmp_path / "agent", {"settings.json": '{\r\n  "theme": "dark"\r\n}'})
    where = ["--set", str(set_root), "--agent-dir", str(agent)]
    ext(*where, "install", "--yes", check=True)
    assert json.loads((agent / "settings.json").read_text())["quietStartup"] is True

    entry = (real_pi.package_dir / "dist" / "index.js").as_uri()
    args = [entry, str(tmp_path), str(agent), real_pi.version]
    done = subprocess.run(
        ["node", "--input-type=module", "-e", PI_WRITES, *args],
        env=e2e_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    written = json.loads((agent / "settings.json").read_text())
    assert written["lastChangelogVersion"] == real_pi.version

    undone = ext(*where, "undo", "--yes")
    assert undone.returncode == 0, undone.stderr
    assert json.loads((agent / "settings.json").read_text()) == {
        "theme": "dark",
        "lastChangelogVersion": real_pi.version,
    }
    assert (agent / "extensions/a.ts").exists() is False
