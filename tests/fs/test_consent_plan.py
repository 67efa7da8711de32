"""`consent approve` and `consent revoke` are plans: they take the agent lock, journal the
store's bytes before they write it, roll back a failed write, and `ext undo` takes them back."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from installer.commands.undo import Undo, undo
from installer.consent import store as store_module
from installer.consent.commands import approve, describe_approval, revoke
from installer.consent.journaled import journaled
from installer.consent.store import store_path
from installer.engine import journal
from installer.engine.lock import agent_lock
from installer.ground.context import Context
from installer.ground.errors import ExtError
from tests.helpers import build_tree, context, yes

HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}]}}


def _setup(tmp_path: Path) -> tuple[Context, Path]:
    the_set = build_tree(tmp_path / "set", {"extensions/a.ts": "export default () => {};"})
    project = build_tree(tmp_path / "shop", {".claude/settings.json": json.dumps(HOOKS)})
    agent = tmp_path / "agent"
    agent.mkdir()
    return context(the_set, agent), project


def _approve(ctx: Context, project: Path) -> None:
    preview = describe_approval(ctx.agent_dir, project)
    approve(ctx.agent_dir, project, preview, write=journaled(ctx, "consent approve"))


def test_approve_is_journaled_and_undone(tmp_path: Path) -> None:
    ctx, project = _setup(tmp_path)
    _approve(ctx, project)
    store = store_path(ctx.agent_dir)
    rec = next(journal.records(ctx.agent_dir))
    assert (rec.command, rec.status) == ("consent approve", "ok")
    assert [(s["op"], s["file"]) for s in rec.steps] == [("file", str(store))]
    assert rec.steps[0]["before"] is None
    assert json.loads(store.read_text())["approvals"]
    undone = undo(ctx, Undo(), yes)
    assert undone.applied
    assert not store.exists()
    assert [a["action"] for a in undone.to_json()["actions"]] == ["restore"]  # no bookkeeping
    assert next(journal.records(ctx.agent_dir)).command == "undo"
    assert [r.undone is not None for r in journal.records(ctx.agent_dir)] == [False, True]


def test_revoke_is_journaled_and_undone(tmp_path: Path) -> None:
    ctx, project = _setup(tmp_path)
    _approve(ctx, project)
    store = store_path(ctx.agent_dir)
    approved = store.read_bytes()
    result = revoke(ctx.agent_dir, project, journaled(ctx, "consent revoke"))
    assert result.changed
    rec = next(journal.records(ctx.agent_dir))
    assert (rec.command, [s["op"] for s in rec.steps]) == ("consent revoke", ["file"])
    assert undo(ctx, Undo(), yes).applied
    assert store.read_bytes() == approved


def test_the_step_is_journaled_before_the_write_and_a_failed_write_rolls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx, project = _setup(tmp_path)
    seen: list[list[str]] = []

    def fail(path: Path, data: bytes) -> None:
        rec = journal.incomplete(ctx.agent_dir)
        assert rec is not None  # the journal is open, its step in it, before the store is written
        seen.append([s["op"] for s in rec.steps])
        raise ExtError("disk full")

    monkeypatch.setattr(store_module, "_write_atomic", fail)
    with pytest.raises(ExtError, match="disk full; every change of this run was rolled back"):
        _approve(ctx, project)
    assert seen == [["file"]]
    assert not store_path(ctx.agent_dir).exists()
    assert next(journal.records(ctx.agent_dir)).status == "rolled-back"


def test_approve_takes_the_agent_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from installer.engine import lock

    ctx, project = _setup(tmp_path)
    monkeypatch.setattr(lock, "agent_lock", functools.partial(lock.agent_lock, timeout=0))
    with agent_lock(ctx.agent_dir), pytest.raises(ExtError, match="another ext is working on"):
        _approve(ctx, project)
    assert not store_path(ctx.agent_dir).exists()
