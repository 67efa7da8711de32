"""`ext settings migrate`: renamed keys move; retired keys go only with --yes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from installer.commands.migrate import SettingsMigrate, migrate
from installer.engine.plan import Plan
from installer.ground.context import Env, resolve
from installer.ground.errors import Refused
from tests.helpers import yes

MANIFEST = """
[settings.renamed]
queueMode = "steeringMode"
[settings.retired]
apiKeys = "moved to auth.json"
"""


def _ctx(tmp_path: Path, settings: str) -> tuple[Path, object]:
    root = tmp_path / "set"
    (root / "extensions").mkdir(parents=True)
    (root / "extset.toml").write_text(MANIFEST)
    agent = tmp_path / "agent"
    agent.mkdir()
    (agent / "settings.json").write_text(settings)
    return agent / "settings.json", resolve(Env(cwd=tmp_path), root, agent)


def _no(plan: Plan, diffs: tuple[str, ...]) -> None:
    raise Refused("declined")


def test_dry_run_writes_nothing_and_shows_the_diff(tmp_path: Path) -> None:
    text = '{\n  "queueMode": "all",\n  "apiKeys": {"a": 1}\n}\n'
    path, ctx = _ctx(tmp_path, text)
    result = migrate(ctx, SettingsMigrate(dry_run=True), yes)  # type: ignore[arg-type]
    assert [a.action for a in result.plan.actions] == ["migrate"]
    assert '+  "steeringMode": "all"' in result.diffs[0]
    assert any("apiKeys" in w for w in result.plan.warnings)
    assert path.read_text() == text


def test_moves_renamed_and_keeps_retired_without_yes(tmp_path: Path) -> None:
    path, ctx = _ctx(tmp_path, '{"queueMode": "all", "apiKeys": {"a": 1}}')
    migrate(ctx, SettingsMigrate(), yes)  # type: ignore[arg-type]
    assert json.loads(path.read_text()) == {"apiKeys": {"a": 1}, "steeringMode": "all"}


def test_yes_removes_retired_keys(tmp_path: Path) -> None:
    path, ctx = _ctx(tmp_path, '{"queueMode": "all", "apiKeys": {"a": 1}, "theme": "dark"}')
    result = migrate(ctx, SettingsMigrate(remove_retired=True), yes)  # type: ignore[arg-type]
    assert {a.action for a in result.plan.actions} == {"migrate", "retire"}
    assert json.loads(path.read_text()) == {"theme": "dark", "steeringMode": "all"}


def test_new_name_present_is_a_conflict_left_alone(tmp_path: Path) -> None:
    text = '{"queueMode": "all", "steeringMode": "one-at-a-time"}'
    path, ctx = _ctx(tmp_path, text)
    result = migrate(ctx, SettingsMigrate(), yes)  # type: ignore[arg-type]
    assert result.plan.is_empty
    assert any("both" in w for w in result.plan.warnings)
    assert path.read_text() == text


def test_declining_writes_nothing(tmp_path: Path) -> None:
    text = '{"queueMode": "all"}'
    path, ctx = _ctx(tmp_path, text)
    with pytest.raises(Refused):
        migrate(ctx, SettingsMigrate(), _no)  # type: ignore[arg-type]
    assert path.read_text() == text
