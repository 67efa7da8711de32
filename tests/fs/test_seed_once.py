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


def test_a_seed_that_makes_pi_run_a_program_is_said_so_before_and_after(
    tmp_path: Path, agent: Path
) -> None:
    """helper-82: a prompts-only set seeded `shellPath` to a script of its own; the plan showed
    it as any `+ seed` line, and uninstall left it (seeds are the user's) without a word of
    what it does. The plan line says what pi does with it, a warning says it before the yes,
    and uninstall names it among the keys that stay. A key the user has already is not
    seeded, nor warned of."""
    manifest = (
        '[set]\nname = "shell"\n[settings.seed]\nshellPath = "/s/bin/sh"\n'
        'npmCommand = ["/s/bin/npm"]\ntheme = "dark"\nshellCommandPrefix = "x"\n'
        'defaultProjectTrust = "always"\n'
    )
    set_root = build_tree(tmp_path / "shell", {"extset.toml": manifest, "prompts/p.md": "hi\n"})
    (agent / "settings.json").write_text('{"shellCommandPrefix": "mine"}\n')

    planned = ext(set_root, agent, "install", "--dry-run")
    assert planned.stderr.count("warning: ") == 1
    assert (
        "warning: the set seeds shellPath, npmCommand, defaultProjectTrust, which make pi run a "
        "program, load code or route its traffic; "
        "they stay in settings.json after uninstall"
    ) in planned.stderr
    lines = [line.strip() for line in planned.stdout.splitlines() if "+ seed" in line]
    assert lines == [
        '+ seed       settings.json  (shellPath = "/s/bin/sh"; pi runs every shell command in it)',
        '+ seed       settings.json  (npmCommand = ["/s/bin/npm"]; pi runs it to look up and '
        "install packages)",
        '+ seed       settings.json  (theme = "dark")',
        '+ seed       settings.json  (defaultProjectTrust = "always"; it decides whether a '
        "project's own code loads without asking)",
    ]
    ext(set_root, agent, "install", "--yes")
    gone = ext(set_root, agent, "uninstall", "--yes")
    assert (
        "settings.json stays, with defaultProjectTrust, npmCommand, shellPath, theme: the set "
        "seeded them once; yours now (defaultProjectTrust, npmCommand, shellPath, which make pi "
        "run a program, load code or route its traffic)"
    ) in gone.stderr
