"""A set whose folder moved since it was installed: its records at the old root are its own,
so uninstall from the new place takes all of it, as from the old one."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.uninstall import Uninstall, uninstall
from installer.ground.context import Env, resolve
from tests.helpers import build_tree, yes

SET = {"extset.toml": '[set]\nname = "tools"\n', "extensions/notify.ts": "// notify\n"}


@pytest.mark.parametrize("mode", ["link", "register"])
def test_uninstall_after_the_set_moved_leaves_the_agent_dir_as_it_found_it(
    tmp_path: Path, mode: str
) -> None:
    """A trial (helper-18): from the moved set, uninstall kept /ext's link (ext's record at the
    old root read as another set needing it) but removed the copy it led to, and said the
    extensions folder was removed while the link held it."""
    root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    agent.mkdir()
    install(resolve(Env(cwd=tmp_path), root, agent), Install(mode=mode), yes)
    moved = root.rename(tmp_path / "set2")

    result = uninstall(resolve(Env(cwd=tmp_path), moved, agent), Uninstall(), yes)

    assert result.applied
    left = sorted(str(p.relative_to(agent)) for p in agent.rglob("*"))
    assert [p for p in left if not p.startswith(".extset/journal/")] == [
        ".extset",
        ".extset/journal",
        ".extset/lock",
    ], left


def test_a_registered_set_whose_folder_moved_is_stale_until_install_registers_it_again(
    tmp_path: Path,
) -> None:
    """A trial: link mode said "points at an older location of the set"; register mode said
    only "not-installed" (list) and "not in packages" (doctor, info) while pi failed on the
    entry naming the gone folder. An error, as in link mode (helper-39: a warning let a
    fleet's `doctor --json` pass a host where pi loads nothing of the set)."""
    from installer.commands.listing import Listing, list_items
    from installer.doctor import resolve_subject, run_checks

    root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    agent.mkdir()
    install(resolve(Env(cwd=tmp_path), root, agent), Install(mode="register"), yes)
    moved = root.rename(tmp_path / "set2")
    ctx = resolve(Env(cwd=tmp_path), moved, agent)

    [item] = list_items(ctx, Listing()).items
    assert (item.state, item.note) == (
        "stale",
        f"registered from an older location of the set ({root}); `ext install` registers it again",
    )
    subject = resolve_subject(Env(cwd=tmp_path), moved, agent, lambda _c, _p: None)
    [row] = run_checks(subject, ["items"])
    assert row.level == "error" and f"older location of the set ({root})" in row.message

    install(ctx, Install(), yes)
    assert [i.state for i in list_items(ctx, Listing()).items] == ["enabled"]


def test_the_last_uninstall_in_an_agent_dir_moved_since_takes_the_settings_ext_made(
    tmp_path: Path,
) -> None:
    """helper-19's review: after `mv agent-a agent-b`, the journals named settings.json at the
    old place, so uninstall did not know it had made the file and its packages key: it left
    `{"packages": []}`, where a dir that had not moved was left without the file."""
    root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent-a"
    agent.mkdir()
    install(resolve(Env(cwd=tmp_path), root, agent), Install(mode="register"), yes)
    moved = agent.rename(tmp_path / "agent-b")

    assert uninstall(resolve(Env(cwd=tmp_path), root, moved), Uninstall(), yes).applied
    assert not (moved / "settings.json").exists()


def test_an_undo_that_puts_back_links_to_a_folder_gone_says_so_before_it(tmp_path: Path) -> None:
    """A trial (helper-39): after the set moved and an install relinked it, undo put the
    links back to the old folder (faithfully) and said nothing: pi then loaded none of it."""
    from installer.commands.undo import Undo, undo

    root = build_tree(tmp_path / "set", {**SET, "prompts/fix.md": "fix\n"})
    agent = tmp_path / "agent"
    agent.mkdir()
    install(resolve(Env(cwd=tmp_path), root, agent), Install(), yes)
    moved = root.rename(tmp_path / "set2")
    ctx = resolve(Env(cwd=tmp_path), moved, agent)
    install(ctx, Install(), yes)

    result = undo(ctx, Undo(dry_run=True), yes)

    assert result.plan.warnings == (
        f"prompts/fix.md, extensions/notify.ts: put back as links into {root}, which no longer "
        "exists: pi will not load them until `ext install` links them from where the set is now",
    )


def test_an_undo_of_the_last_uninstall_does_not_warn_of_the_copy_it_puts_back(
    tmp_path: Path,
) -> None:
    """helper-48: undo of the last uninstall warned that /ext's link would lead into
    `.extset/agent/`, 'which no longer exists', though the same plan puts the copy back."""
    from installer.commands.undo import Undo, undo

    root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    agent.mkdir()
    ctx = resolve(Env(cwd=tmp_path), root, agent)
    install(ctx, Install(), yes)
    uninstall(ctx, Uninstall(), yes)
    assert not (agent / ".extset/agent").exists()  # the last uninstall took the copy

    result = undo(ctx, Undo(dry_run=True), yes)

    assert "extensions/ext-command.ts" in [a.path for a in result.plan.actions]
    assert result.plan.warnings == ()
