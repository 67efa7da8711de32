"""Security pass: permissions of what ext writes and keeps, and names that could escape."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.ground.context import Env, resolve
from installer.ground.errors import UsageError
from tests.helpers import build_tree, yes


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_backups_keep_permissions_and_journal_is_private(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set", {"extensions/a.ts": "// a", "extensions/d/index.ts": "// d"}
    )
    agent = build_tree(
        tmp_path / "agent", {"extensions/a.ts": "secret", "extensions/d/index.ts": "mine"}
    )
    (agent / "extensions" / "a.ts").chmod(0o640)
    (agent / "extensions" / "d").chmod(0o750)
    result = install(resolve(Env(cwd=tmp_path), root, agent), Install(), yes)
    backups = {a.path: a.backup for a in result.plan.actions if a.action == "backup"}
    assert _mode(agent / str(backups["extensions/a.ts"])) == 0o640
    assert _mode(agent / str(backups["extensions/d"])) == 0o750
    journal = agent / ".extset" / "journal"
    assert _mode(journal) == 0o700
    assert {_mode(p) for p in journal.iterdir()} == {0o600}


@pytest.mark.parametrize("name", ["-rf.ts", "a\x1bb.ts", "back\\slash.ts", "tab\there.ts"])
def test_a_set_with_a_name_that_is_not_plain_is_refused(tmp_path: Path, name: str) -> None:
    root = build_tree(tmp_path / "set", {f"extensions/{name}": "// x"})
    agent = tmp_path / "agent"
    agent.mkdir()
    with pytest.raises(UsageError, match=r"control|starts with|contains") as caught:
        install(resolve(Env(cwd=tmp_path), root, agent), Install(dry_run=True), yes)
    assert caught.value.fix
    assert not any(agent.iterdir())
