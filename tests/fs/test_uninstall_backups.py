"""Backups stay after an uninstall (the user's own), and the uninstall says where each is:
pi no longer loads what the link was, nor the backup beside it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.uninstall import Uninstall, uninstall
from tests.helpers import build_tree, context, yes

SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/notify.ts": "export default function () {}\n",
    "extensions/gamma/index.ts": "export default function () {}\n",
    "extensions/plain.ts": "export default function () {}\n",
}


def test_each_backup_of_what_a_link_replaced_is_named_by_the_uninstall(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", dict(SET))
    agent = build_tree(
        tmp_path / "agent",
        {"extensions/notify.ts": "mine\n", "extensions/gamma/index.ts": "my gamma\n"},
    )
    install(context(root, agent), Install(), yes)
    file_backup = next(
        n for n in os.listdir(agent / "extensions") if n.startswith("notify.ts.bak.")
    )
    [dir_backup] = os.listdir(agent / "extensions" / ".bak")

    result = uninstall(context(root, agent), Uninstall(), yes)

    assert sorted(result.notes) == [
        f"extensions/gamma: what was there before ext stays as extensions/.bak/{dir_backup} "
        "(pi does not load it; rename it back to extensions/gamma to use it)",
        f"extensions/notify.ts: what was there before ext stays as extensions/{file_backup} "
        "(pi does not load it; rename it back to extensions/notify.ts to use it)",
    ]
    assert (agent / "extensions" / file_backup).read_text() == "mine\n"  # backups stay


def test_the_backup_of_an_item_switched_off_is_named_too(tmp_path: Path) -> None:
    """A parked link (`notify.ts.off`, `extensions/.off/gamma`) stands for the item: the
    backup of what was at the item's place is found beside that place, not beside the link."""
    from installer.commands.toggle import switch

    root = build_tree(tmp_path / "set", dict(SET))
    agent = build_tree(
        tmp_path / "agent",
        {"extensions/notify.ts": "mine\n", "extensions/gamma/index.ts": "my gamma\n"},
    )
    install(context(root, agent), Install(), yes)
    switch(context(root, agent), ["notify", "gamma"], False, False, False, yes)
    assert (agent / "extensions/notify.ts.off").is_symlink()

    result = uninstall(context(root, agent), Uninstall(), yes)

    said = sorted(n.split(":")[0] for n in result.notes)
    assert said == ["extensions/.off/gamma", "extensions/notify.ts.off"]
    assert all(
        n.endswith(("extensions/gamma to use it)", "notify.ts to use it)")) for n in result.notes
    )


def test_the_settings_the_set_seeded_stay_and_the_last_uninstall_says_so(tmp_path: Path) -> None:
    """A seed is the user's once written: the file stays with it, and the uninstall of the
    last set names what stays (one the user removed since is not named)."""
    seeds = "[settings.seed]\nquietStartup = true\ncollapseChangelog = true\n"
    root = build_tree(tmp_path / "set", {**SET, "extset.toml": SET["extset.toml"] + seeds})
    agent = tmp_path / "agent"
    agent.mkdir()
    install(context(root, agent), Install(), yes)
    (agent / "settings.json").write_text('{\n  "quietStartup": true\n}\n')

    result = uninstall(context(root, agent), Uninstall(dry_run=True), yes)

    assert result.notes == (
        "settings.json stays, with quietStartup: the set seeded it once; yours now",
    )
    assert uninstall(context(root, agent), Uninstall(), yes).notes == result.notes
    assert (agent / "settings.json").read_text() == '{\n  "quietStartup": true\n}\n'


@pytest.mark.parametrize("older", [False, True])
def test_a_key_the_user_had_before_the_set_seeds_it_is_not_called_seeded(
    tmp_path: Path, older: bool
) -> None:
    """A trial (helper-29): `quietStartup: false` was the user's own, and the set, which seeds
    it, left it so; the uninstall said the set had seeded it. The record now keeps the keys
    the set wrote; a record of an older ext, which does not, is said without that claim."""
    import json

    seeds = "[settings.seed]\nquietStartup = true\ncollapseChangelog = true\n"
    root = build_tree(tmp_path / "set", {**SET, "extset.toml": SET["extset.toml"] + seeds})
    agent = build_tree(tmp_path / "agent", {"settings.json": '{\n  "quietStartup": false\n}\n'})
    install(context(root, agent), Install(), yes)
    state = agent / ".extset/state.json"
    if older:
        data = json.loads(state.read_text())
        for record in data["sets"]:
            record["extra"].pop("wrote")
        state.write_text(json.dumps(data))

    result = uninstall(context(root, agent), Uninstall(), yes)

    if older:
        assert result.notes == (
            "settings.json stays, with collapseChangelog, quietStartup: keys the set seeds; "
            "ext takes none back",
        )
    else:
        assert result.notes == (
            "settings.json stays, with collapseChangelog: the set seeded it once; yours now",
        )


@pytest.mark.parametrize("switched_off", [False, True], ids=["enabled", "switched-off"])
def test_a_prune_of_a_link_that_replaced_a_users_file_names_its_backup(
    tmp_path: Path, switched_off: bool
) -> None:
    """A trial (helper-39): the set renamed notify, the next install pruned its link, and the
    user's own notify.ts, backed up by the first install, was never named again (nor by the
    uninstall after, with no link left at its place). The prune says where it is."""
    from installer.commands.toggle import switch

    root = build_tree(tmp_path / "set", dict(SET))
    agent = build_tree(tmp_path / "agent", {"extensions/notify.ts": "mine\n"})
    install(context(root, agent), Install(), yes)
    if switched_off:
        switch(context(root, agent), ["notify"], False, False, False, yes)
    [backup] = [n for n in os.listdir(agent / "extensions") if n.startswith("notify.ts.bak.")]
    (root / "extensions/notify.ts").rename(root / "extensions/notice.ts")

    result = install(context(root, agent), Install(), yes)

    link = "extensions/notify.ts.off" if switched_off else "extensions/notify.ts"
    assert [a.path for a in result.plan.actions if a.action == "prune"] == [link]
    assert result.notes == (
        f"{link}: what was there before ext stays as extensions/{backup} "
        "(pi does not load it; rename it back to extensions/notify.ts to use it)",
    )
    assert (agent / "extensions" / backup).read_text() == "mine\n"


def test_a_prune_with_no_backup_says_nothing_more(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", dict(SET))
    agent = tmp_path / "agent"
    agent.mkdir()
    install(context(root, agent), Install(), yes)
    (root / "extensions/notify.ts").unlink()

    result = install(context(root, agent), Install(), yes)

    assert [a.action for a in result.plan.actions if a.path == "extensions/notify.ts"] == ["prune"]
    assert result.notes == ()
