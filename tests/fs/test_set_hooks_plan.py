"""A set's hooks/*.json: the install plan lists each hook command, again only when they change."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from installer.commands.install import Install, install
from installer.ground.context import Env, resolve
from tests.helpers import build_tree, yes

HOOKS = {
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]
    }
}


def test_hooks_are_approved_by_installing_and_a_change_shows_again(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {"extensions/a.ts": "// a", "hooks/guard.json": json.dumps(HOOKS)},
    )
    agent = tmp_path / "agent"
    agent.mkdir()
    ctx = resolve(Env(cwd=tmp_path), root, agent)

    first = install(ctx, Install(), yes)
    approves = [a for a in first.plan.actions if a.action == "approve"]
    assert [(a.path, a.detail) for a in approves] == [
        ("hooks/guard.json", "PreToolUse Bash: ./guard.sh (new)")
    ]
    state = json.loads((agent / ".extset" / "state.json").read_text())
    assert state["sets"][0]["extra"]["hooks"]["sha256"].startswith("sha256:")

    second = install(ctx, Install(), yes)
    assert second.plan.is_empty

    changed = copy.deepcopy(HOOKS)  # HOOKS stays as it was: the test passes run twice in a row
    changed["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = "./guard.sh --strict"
    (root / "hooks" / "guard.json").write_text(json.dumps(changed, indent=4))
    third = install(ctx, Install(dry_run=True), yes)
    assert [a.detail for a in third.plan.actions if a.action == "approve"] == [
        "PreToolUse Bash: ./guard.sh --strict (changed since the last install)"
    ]
    assert third.changed
