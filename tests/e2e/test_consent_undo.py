"""`ext undo` takes a consent approval back, and puts a revoked one back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import Run
from tests.helpers import build_tree

pytestmark = pytest.mark.e2e

HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}]}}


def test_undo_reverses_approve_and_revoke(ext: Run, tmp_path: Path) -> None:
    the_set = build_tree(tmp_path / "set", {"extensions/a.ts": "export default () => {};"})
    project = build_tree(tmp_path / "shop", {".claude/settings.json": json.dumps(HOOKS)})
    agent = tmp_path / "agent"
    agent.mkdir()
    common = ("--set", str(the_set), "--agent-dir", str(agent))
    store = agent / ".extset" / "consent" / "project-approvals.json"

    ext(*common, "consent", "approve", str(project), "--yes", check=True)
    assert ext(*common, "consent", "check", str(project)).returncode == 0
    approved = store.read_bytes()

    ext(*common, "consent", "revoke", str(project), check=True)
    assert ext(*common, "consent", "check", str(project)).returncode == 3

    undone = ext(*common, "undo", "--yes", check=True)
    assert "project-approvals.json" in undone.stdout
    assert store.read_bytes() == approved  # the revoke is taken back
    assert ext(*common, "consent", "check", str(project)).returncode == 0

    ext(*common, "undo", "--yes", check=True)  # and then the approval itself
    assert ext(*common, "consent", "check", str(project)).returncode == 3
    assert not store.exists()  # there was no store before the approval
    history = json.loads(ext(*common, "--json", "history", check=True).stdout)["history"]
    assert [h["command"] for h in history][-2:] == ["consent revoke", "consent approve"]
