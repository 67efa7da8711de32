"""Hooks a set ships in hooks/*.json: listed for the plan, hashed to spot a change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from installer.consent.sethooks import set_hook_commands, set_hooks_hash
from installer.ground.errors import ExtError
from tests.helpers import build_tree


def hook_file(command: str, event: str = "PreToolUse", matcher: str | None = "Bash") -> str:
    group: dict[str, object] = {"hooks": [{"type": "command", "command": command}]}
    if matcher is not None:
        group["matcher"] = matcher
    return json.dumps({"hooks": {event: [group]}})


def test_each_hook_file_is_listed_in_name_order(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "hooks/lint.json": hook_file("ruff check"),
            "hooks/audit.json": json.dumps(
                {"Stop": [{"hooks": [{"type": "command", "command": "log"}]}]}
            ),
            "hooks/.draft.json": hook_file("never"),
            "hooks/README.md": "not a hook file",
        },
    )
    listed = [(c.source, c.event, c.matcher, c.command) for c in set_hook_commands(root)]
    assert listed == [
        ("hooks/audit.json", "Stop", None, "log"),
        ("hooks/lint.json", "PreToolUse", "Bash", "ruff check"),
    ]


def test_the_hash_changes_with_the_files_and_only_with_what_runs(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"hooks/lint.json": hook_file("ruff check")})
    first = set_hooks_hash(root)
    assert first is not None and first.startswith("sha256:")
    (root / "hooks/lint.json").write_text(json.dumps(json.loads(hook_file("ruff check")), indent=4))
    assert set_hooks_hash(root) == first
    (root / "hooks/lint.json").write_text(hook_file("ruff check --fix"))
    assert set_hooks_hash(root) != first
    (root / "hooks/lint.json").rename(root / "hooks/style.json")
    assert set_hooks_hash(root) not in (first, None)


def test_a_set_without_hooks_has_no_hash(tmp_path: Path) -> None:
    assert set_hooks_hash(tmp_path) is None
    assert set_hook_commands(tmp_path) == []
    build_tree(tmp_path, {"hooks/empty.json": "{}"})
    assert set_hooks_hash(tmp_path) is None


def test_a_broken_hook_file_is_named(tmp_path: Path) -> None:
    build_tree(tmp_path, {"hooks/bad.json": '{"hooks": '})
    with pytest.raises(ExtError, match=r"bad\.json is not valid JSON"):
        set_hook_commands(tmp_path)
