"""An old store in `<agent>/hooks/` beside a new one: never a loop of "run ext consent list".

The move is refused when `.extset/consent/` holds a store already (an ext of each
version ran). When the old store holds nothing the new one lacks, it is retired
(journaled, so `ext undo` brings it back) and pi's warning goes with `hooks/`; when
it holds more, ext leaves both alone and says how to settle it, and so does doctor.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.consent import commands
from installer.consent.store import store_path
from tests.helpers import build_tree

HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify done"}]}]}}


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    path = tmp_path / "agent"
    path.mkdir()
    return path


def project(tmp_path: Path, name: str) -> Path:
    return build_tree(tmp_path / name, {".claude/settings.json": json.dumps(HOOKS)})


def ext(tmp_path: Path, agent: Path, *args: str) -> tuple[int, str]:
    the_set = build_tree(tmp_path / "set", {"extensions/a.ts": "export default () => {};"})
    env = {"EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    done = CliRunner().invoke(
        app, ["--set", str(the_set), "--agent-dir", str(agent), *args], env=env
    )
    return done.exit_code, done.output


def approve(agent: Path, proj: Path) -> None:
    commands.approve(agent, proj, commands.describe_approval(agent, proj))


def old_store(agent: Path, text: bytes) -> Path:
    """The store as ext before the move kept it."""
    folder = agent / "hooks"
    folder.mkdir(mode=0o700, exist_ok=True)
    (folder / "project-approvals.json").write_bytes(text)
    os.chmod(folder / "project-approvals.json", 0o600)
    return folder / "project-approvals.json"


def doctor_row(tmp_path: Path, agent: Path) -> dict[str, str]:
    _, output = ext(tmp_path, agent, "--json", "doctor", "--check", "agent.hooks")
    [row] = [c for c in json.loads(output)["checks"] if c["id"] == "agent.hooks"]
    return dict(row)


def test_an_old_store_the_new_one_already_holds_is_retired_and_undo_brings_it_back(
    tmp_path: Path, agent: Path
) -> None:
    approve(agent, project(tmp_path, "shop"))
    text = store_path(agent).read_bytes()
    old = old_store(agent, text)
    assert doctor_row(tmp_path, agent)["fix"].startswith("ext consent list")

    code, output = ext(tmp_path, agent, "consent", "list")
    assert code == 0, output
    assert "holds no approval" in output and "removed" in output
    assert not (agent / "hooks").exists()
    assert store_path(agent).read_bytes() == text
    assert doctor_row(tmp_path, agent)["level"] == "ok"

    code, output = ext(tmp_path, agent, "undo", "--yes")
    assert code == 0, output
    assert old.read_bytes() == text


def test_an_old_store_with_approvals_the_new_one_lacks_stays_and_both_say_how_to_settle_it(
    tmp_path: Path, agent: Path
) -> None:
    approve(agent, project(tmp_path, "only-old"))
    old_text = store_path(agent).read_bytes()
    store_path(agent).unlink()
    approve(agent, project(tmp_path, "only-new"))
    new_text = store_path(agent).read_bytes()
    old = old_store(agent, old_text)

    code, output = ext(tmp_path, agent, "consent", "list")
    assert code == 0, output
    assert "only-old" in output and "consent approve" in output
    assert old.read_bytes() == old_text and store_path(agent).read_bytes() == new_text

    row = doctor_row(tmp_path, agent)
    assert row["level"] == "warn" and "only-old" in row["message"]
    assert not row["fix"].startswith("ext consent list")  # that would only say this again
    assert "ext consent approve" in row["fix"] and "mv " in row["fix"]

    # Following the fix ends it, even when the project's hooks changed since the old approval.
    changed = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify later"}]}]}}
    (tmp_path / "only-old" / ".claude" / "settings.json").write_text(json.dumps(changed))
    approve(agent, tmp_path / "only-old")
    code, output = ext(tmp_path, agent, "consent", "list")
    assert code == 0, output
    assert not (agent / "hooks").exists()
    assert doctor_row(tmp_path, agent)["level"] == "ok"
