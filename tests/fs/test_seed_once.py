"""A seed is written once: a key the user removed stays removed; --reseed brings it back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from tests.helpers import build_tree

MANIFEST = """\
[set]
name = "seeded"

[settings.seed]
quietStartup = true
"compaction.enabled" = false
"""


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(
        tmp_path / "set", {"extset.toml": MANIFEST, "extensions/a.ts": "export default 1\n"}
    )


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "agent", {"extensions": None})


def ext(set_root: Path, agent: Path, *args: str) -> Any:
    result = CliRunner().invoke(app, ["--set", str(set_root), "--agent-dir", str(agent), *args])
    assert result.exit_code == 0, result.output
    return result


def settings(agent: Path) -> dict[str, Any]:
    data = json.loads((agent / "settings.json").read_text())
    assert isinstance(data, dict)
    return data


def test_a_seed_the_user_removed_stays_removed(set_root: Path, agent: Path) -> None:
    ext(set_root, agent, "install", "--yes")
    assert settings(agent) == {"quietStartup": True, "compaction": {"enabled": False}}

    (agent / "settings.json").write_text('{"compaction": {"enabled": false}}\n')
    (agent / "extensions" / "a.ts").unlink()  # something for the next install to do
    again = ext(set_root, agent, "install", "--yes")

    assert "seed" not in again.stdout
    assert (agent / "extensions" / "a.ts").is_symlink()
    assert (agent / "settings.json").read_text() == '{"compaction": {"enabled": false}}\n'
    state = json.loads((agent / ".extset" / "state.json").read_text())
    assert state["sets"][0]["extra"]["seeded"] == ["compaction.enabled", "quietStartup"]


def test_reseed_brings_removed_seeds_back_and_keeps_the_users_values(
    set_root: Path, agent: Path
) -> None:
    ext(set_root, agent, "install", "--yes")
    (agent / "settings.json").write_text('{"compaction": {"enabled": true}}\n')

    planned = ext(set_root, agent, "install", "--reseed", "--dry-run")
    ext(set_root, agent, "install", "--reseed", "--yes")

    assert "quietStartup = true" in planned.stdout
    assert settings(agent) == {"compaction": {"enabled": True}, "quietStartup": True}


def test_a_seed_the_set_adds_later_is_written_once(set_root: Path, agent: Path) -> None:
    ext(set_root, agent, "install", "--yes")
    manifest = set_root / "extset.toml"
    manifest.write_text(manifest.read_text() + "collapseChangelog = true\n")

    ext(set_root, agent, "install", "--yes")
    assert settings(agent)["collapseChangelog"] is True

    (agent / "settings.json").write_text("{}\n")
    (agent / "extensions" / "a.ts").unlink()
    ext(set_root, agent, "install", "--yes")
    assert settings(agent) == {}


def test_an_install_recorded_before_seeds_were_kept_counts_them_seeded(
    set_root: Path, agent: Path
) -> None:
    ext(set_root, agent, "install", "--yes")
    state_file = agent / ".extset" / "state.json"
    state = json.loads(state_file.read_text())
    del state["sets"][0]["extra"]["seeded"]  # as an older ext wrote it
    state_file.write_text(json.dumps(state))
    (agent / "settings.json").write_text("{}\n")

    plan = json.loads(ext(set_root, agent, "--json", "install", "--dry-run").stdout)

    assert "seed" not in [a["action"] for a in plan["actions"]]
    # The real run writes no seed; it brings the set's line of the record up to date (its
    # list of seeded keys), which the dry run counts as a change.
    assert plan["changed"] is True
    ext(set_root, agent, "install", "--yes")
    assert settings(agent) == {}
    assert "seeded" in json.loads(state_file.read_text())["sets"][0]["extra"]


def test_a_seed_a_non_object_parent_kept_out_is_written_once_there_is_room(
    set_root: Path, agent: Path
) -> None:
    """`"compaction": 5` keeps `compaction.enabled` out: that seed was never written, so it
    is not recorded as seeded, and the install after the user makes room writes it."""
    (agent / "settings.json").write_text('{"compaction": 5}\n')
    ext(set_root, agent, "install", "--yes")
    assert settings(agent) == {"compaction": 5, "quietStartup": True}
    (agent / "settings.json").write_text('{"compaction": {}, "quietStartup": true}\n')
    ext(set_root, agent, "install", "--yes")
    assert settings(agent) == {"compaction": {"enabled": False}, "quietStartup": True}
