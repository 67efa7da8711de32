"""What concurrent runs were told under load: each message says what ext really found.

A file of the bundled set's stable copy vanishing while a run read it (another run swapping
its copy in) ended in a raw "No such file or directory" and "run again with --debug"; an
undo meeting the journal of a run still at work said that run "was killed while writing".
The races are made deterministic by doing the other run's part at the moment it matters.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.undo import Undo, undo
from installer.engine import journal
from installer.ground import bundled_copy
from installer.ground.bundled_copy import stable_copy
from installer.ground.errors import ExtError, Refused
from tests.helpers import build_tree, context, holding_lock, yes

SET = {
    "extset.toml": '[set]\nname = "b"\n[settings.seed]\nquietStartup = true\n',
    "extensions/confirm-destructive.ts": "// confirm\n",
    "extensions/notify.ts": "// notify\n",
}


def once(real: Callable[[Path], set[Path]], root: Path, then: Callable[[], None]) -> object:
    """`_files`, which does `then` right after it first lists `root`: another run's move."""
    done = False

    def listing(where: Path) -> set[Path]:
        nonlocal done
        found = real(where)
        if where == root and not done:
            done = True
            then()
        return found

    return listing


def test_a_copy_file_vanishing_while_read_is_read_again_not_a_raw_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = build_tree(tmp_path / "shipped", dict(SET))
    stable = tmp_path / "data" / "bundled"
    stable_copy(shipped, stable)
    # Another run renames the copy away to swap its own in: this run meets a vanished file.
    victim = stable / "extensions" / "confirm-destructive.ts"
    monkeypatch.setattr(bundled_copy, "_files", once(bundled_copy._files, stable, victim.unlink))

    assert stable_copy(shipped, stable) == stable
    assert victim.read_text() == "// confirm\n"  # made whole again under the lock
    assert sorted(p.name for p in stable.parent.iterdir()) == ["bundled"]


def test_a_shipped_file_vanishing_mid_copy_names_it_and_says_run_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = build_tree(tmp_path / "shipped", dict(SET))
    stable = tmp_path / "data" / "bundled"
    gone = shipped / "extensions" / "confirm-destructive.ts"
    real_copy = shutil.copyfile  # what copytree's copy2 calls, looked up at each call

    def copy(src: str, dst: str, **kw: object) -> object:
        if Path(src) == gone:
            gone.unlink()  # an upgrade of ext replacing its files right now
        return real_copy(src, dst, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(shutil, "copyfile", copy)
    with pytest.raises(ExtError) as caught:
        stable_copy(shipped, stable)
    assert str(gone) in caught.value.message
    assert "changed under ext" in caught.value.message
    assert caught.value.fix == "run the command again"
    assert not stable.parent.exists() or list(stable.parent.iterdir()) == []  # no half copy


def cut_at_settings(agent: Path, pid: int) -> Path:
    """The install's journal as a run still writing settings.json leaves it, under `pid`."""
    (log,) = sorted(journal.journal_dir(agent).glob("*.jsonl"))
    lines = log.read_text().splitlines()
    cut = next(i for i, line in enumerate(lines) if '"op": "settings"' in line)
    stamp, _, tail = log.stem.partition("-")
    moved = log.with_name(f"{stamp}-{pid}-{tail.partition('-')[2]}.jsonl")
    log.unlink()
    moved.write_text("\n".join(lines[: cut + 1]) + "\n")
    return moved


def test_undo_meeting_a_run_still_at_work_says_so_not_that_it_was_killed(
    tmp_path: Path,
) -> None:
    root = build_tree(tmp_path / "set", dict(SET))
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    ctx = context(root, agent)
    install(ctx, Install(), yes)
    with holding_lock(agent) as live:
        cut_at_settings(agent, live.pid)
        with pytest.raises(Refused) as caught:
            undo(ctx, Undo(dry_run=True), yes)
        live.communicate("")
    message = caught.value.message
    assert message.startswith(f"`ext install` (pid {live.pid}, started ")
    assert "is still at work on" in message and "killed" not in message
    assert caught.value.fix == "wait for it to finish, then run `ext undo` again"

    # Its process gone, the same journal is a run that was killed: said as such.
    with pytest.raises(ExtError, match="a run was killed while writing it"):
        undo(ctx, Undo(dry_run=True), yes)
