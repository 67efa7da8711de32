"""`ext undo`: reverses the last apply exactly, never clobbers a later change."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.undo import History, Undo, history, undo
from installer.ground.context import Context, Env, resolve
from installer.ground.errors import ExtError
from tests.helpers import build_tree, holding_lock, snapshot, yes

MANIFEST = "[settings.seed]\nquietStartup = true\n"


def _without_bookkeeping(tree: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    return {k: v for k, v in tree.items() if not k.startswith(".extset")}


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": MANIFEST,
            "extensions/alpha.ts": "// alpha",
            "extensions/beta/index.ts": "// beta",
            "skills/gamma/SKILL.md": "# gamma",
        },
    )
    agent = build_tree(
        tmp_path / "agent",
        {
            "extensions/alpha.ts": "// the user's own alpha",
            "extensions/beta/index.ts": "// the user's own beta",
            "extensions/old.ts": Path("/nowhere/old.ts"),
            "settings.json": '{\n    "theme": "dark"\n}\n',
        },
    )
    return resolve(Env(cwd=tmp_path), root, agent)


def test_undo_after_install_restores_the_agent_dir_byte_for_byte(ctx: Context) -> None:
    before = snapshot(ctx.agent_dir)
    install(ctx, Install(), yes)
    assert snapshot(ctx.agent_dir) != before
    result = undo(ctx, Undo(), yes)
    assert result.applied
    assert _without_bookkeeping(snapshot(ctx.agent_dir)) == _without_bookkeeping(before)


def test_undo_dry_run_writes_nothing(ctx: Context) -> None:
    install(ctx, Install(), yes)
    after_install = snapshot(ctx.agent_dir)
    result = undo(ctx, Undo(dry_run=True), yes)
    assert not result.plan.is_empty
    assert snapshot(ctx.agent_dir) == after_install


def test_undo_takes_back_ext_keys_and_keeps_what_pi_added_since(ctx: Context) -> None:
    settings = ctx.agent_dir / "settings.json"
    settings.write_bytes(b'{\r\n    "theme": "dark",\r\n    "maxTokens": 1e400\r\n}')
    install(ctx, Install(), yes)
    # pi's first start adds lastChangelogVersion the way pi writes: JSON.stringify(…, null, 2)
    text = settings.read_bytes().decode()
    settings.write_bytes(
        text.replace("\r\n}", ',\r\n    "lastChangelogVersion": "0.73.1"\r\n}').encode()
    )
    result = undo(ctx, Undo(), yes)
    assert result.applied
    assert settings.read_bytes() == (
        b'{\r\n    "theme": "dark",\r\n    "maxTokens": 1e400,\r\n'
        b'    "lastChangelogVersion": "0.73.1"\r\n}'
    )


def test_undo_refuses_when_a_key_ext_wrote_was_changed_since(ctx: Context) -> None:
    install(ctx, Install(), yes)
    settings = ctx.agent_dir / "settings.json"
    data = json.loads(settings.read_text())
    data["quietStartup"] = False  # the user's newer choice of the very key ext seeded
    data["theme"] = "light"
    settings.write_text(json.dumps(data))
    changed = snapshot(ctx.agent_dir)
    with pytest.raises(ExtError, match=r"changed since it ran: .*settings\.json") as err:
        undo(ctx, Undo(), yes)
    assert '"quietStartup" is false now; ext wrote true, it was absent before' in err.value.message
    assert err.value.fix is not None
    assert 'remove "quietStartup" from settings.json yourself' in err.value.fix
    assert snapshot(ctx.agent_dir) == changed
    data.pop("quietStartup")  # the fix, followed
    settings.write_text(json.dumps(data))
    assert undo(ctx, Undo(), yes).applied
    assert json.loads(settings.read_text()) == {"theme": "light"}


def test_undo_refuses_when_a_link_was_replaced(ctx: Context) -> None:
    install(ctx, Install(), yes)
    link = ctx.agent_dir / "skills" / "gamma"
    link.unlink()
    link.mkdir()
    (link / "SKILL.md").write_text("# the user's own gamma")
    changed = snapshot(ctx.agent_dir)
    with pytest.raises(ExtError, match="skills/gamma"):
        undo(ctx, Undo(), yes)
    assert snapshot(ctx.agent_dir) == changed


def test_undo_walks_back_and_skips_what_was_undone(ctx: Context) -> None:
    empty = snapshot(ctx.agent_dir)
    install(ctx, Install(only=("alpha",)), yes)
    after_first = snapshot(ctx.agent_dir)
    install(ctx, Install(), yes)
    undo(ctx, Undo(), yes)
    assert _without_bookkeeping(snapshot(ctx.agent_dir)) == _without_bookkeeping(after_first)
    undo(ctx, Undo(), yes)
    assert _without_bookkeeping(snapshot(ctx.agent_dir)) == _without_bookkeeping(empty)
    assert undo(ctx, Undo(), yes).plan.is_empty
    rows = history(ctx, History()).rows
    assert [r["command"] for r in rows] == ["undo", "undo", "install", "install"]
    assert [bool(r["undone"]) for r in rows] == [False, False, True, True]


def test_undo_reverses_an_interrupted_run(ctx: Context, monkeypatch: pytest.MonkeyPatch) -> None:
    before = snapshot(ctx.agent_dir)
    calls = {"n": 0}
    real = os.symlink

    def crash_on_second(src: str, dst: str) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # stands for a kill: no rollback for a KeyboardInterrupt?
        real(src, dst)

    # A KeyboardInterrupt is rolled back too; to leave a journal open, fail inside the journal
    # itself: the interrupted run is simulated by truncating the closing line afterwards.
    monkeypatch.setattr(os, "symlink", crash_on_second)
    with pytest.raises(KeyboardInterrupt):
        install(ctx, Install(), yes)
    monkeypatch.setattr(os, "symlink", real)
    assert _without_bookkeeping(snapshot(ctx.agent_dir)) == _without_bookkeeping(before)


def test_a_symlinked_bookkeeping_folder_is_refused(ctx: Context, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (ctx.agent_dir / ".extset").symlink_to(elsewhere)
    before = snapshot(ctx.agent_dir)
    with pytest.raises(ExtError, match=r"\.extset is a symlink"):
        install(ctx, Install(), yes)
    assert snapshot(ctx.agent_dir) == before
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("locked", [True, False])
def test_a_journal_of_a_live_run_is_not_reported_as_interrupted(ctx: Context, locked: bool) -> None:
    """A run at work holds the lock; a live pid without it is a process that took a killed
    run's number (helper-29: pids repeat in containers), or one that died unreaped: that
    run was interrupted, and undo must not wait for it."""
    from installer.engine import journal

    folder = journal.journal_dir(ctx.agent_dir)
    folder.mkdir(parents=True)
    with holding_lock(ctx.agent_dir, locked) as live:
        name = f"20261129T120000.000000-{live.pid}-install.jsonl"
        (folder / name).write_text(
            '{"journal": 1, "command": "install"}\n{"op": "mkdir", "path": "x"}\n'
        )
        assert (journal.incomplete(ctx.agent_dir) is None) == locked
        live.communicate("")
    assert live.returncode == 0  # asked whether it runs (signal 0), never sent a signal
    assert journal.incomplete(ctx.agent_dir) is not None


def test_a_run_killed_while_writing_settings_is_judged_by_the_bytes_before(ctx: Context) -> None:
    before = snapshot(ctx.agent_dir)
    settings = ctx.agent_dir / "settings.json"
    original = settings.read_bytes()
    install(ctx, Install(), yes)
    (log,) = sorted((ctx.agent_dir / ".extset" / "journal").glob("*.jsonl"))
    lines = log.read_text().splitlines()
    cut = next(i for i, line in enumerate(lines) if '"op": "settings"' in line)
    log.write_text("\n".join(lines[: cut + 1]) + "\n")  # killed during the write

    seeded = settings.read_bytes()
    with pytest.raises(ExtError, match="killed while writing"):  # not ours to judge
        undo(ctx, Undo(dry_run=True), yes)

    settings.write_bytes(original)  # the write had not happened yet
    undo(ctx, Undo(), yes)
    assert _without_bookkeeping(snapshot(ctx.agent_dir)) == _without_bookkeeping(before)
    assert seeded != original


def test_journals_are_kept_to_the_configured_number(ctx: Context, isolated_home: Path) -> None:
    from installer.engine.journal import journal_dir, keep_setting
    from installer.updates.paths import user_config_path

    assert keep_setting() == 50
    config = user_config_path()
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[journal]\nkeep = 2\n")
    assert keep_setting() == 2
    for only in (["alpha"], ["beta"], [], []):
        install(ctx, Install(only=tuple(only)), yes)
        undo(ctx, Undo(), yes)
    assert len(list(journal_dir(ctx.agent_dir).glob("*.jsonl"))) == 2
    config.write_text("[journal]\nkeep = 0\n")
    assert keep_setting() == 50  # nonsense falls back to the default


@pytest.mark.parametrize(
    "now", [Path("/etc/hostname"), "the user's own file"], ids=["a link", "a file"]
)
def test_undo_of_a_disable_moves_back_only_the_link_it_parked(
    ctx: Context, now: Path | str
) -> None:
    """A parked link replaced since is someone else's: moved back, pi would load it."""
    from installer.commands.toggle import Disable, disable

    (ctx.agent_dir / "extensions/alpha.ts").unlink()  # the user's alpha out of the way
    install(ctx, Install(), yes)
    disable(ctx, Disable(names=("alpha",)), yes)
    parked = ctx.agent_dir / "extensions/alpha.ts.off"
    parked.unlink()
    build_tree(ctx.agent_dir, {"extensions/alpha.ts.off": now})
    before = snapshot(ctx.agent_dir)

    with pytest.raises(ExtError) as refused:
        undo(ctx, Undo(), yes)

    assert "extensions/alpha.ts.off (ext moved extensions/alpha.ts there, a link to" in (
        refused.value.message
    )
    assert snapshot(ctx.agent_dir) == before


def test_undo_of_a_disable_puts_the_link_back(ctx: Context) -> None:
    from installer.commands.toggle import Disable, disable

    (ctx.agent_dir / "extensions/alpha.ts").unlink()
    install(ctx, Install(), yes)
    on = snapshot(ctx.agent_dir)["extensions/alpha.ts"]
    disable(ctx, Disable(names=("alpha",)), yes)

    assert undo(ctx, Undo(), yes).applied
    assert snapshot(ctx.agent_dir)["extensions/alpha.ts"] == on


@pytest.mark.parametrize("mode", ["link", "register", "link, an older ext's journal"])
def test_undo_in_an_agent_dir_moved_since_the_run_stays_in_it(ctx: Context, mode: str) -> None:
    """A trial: `mv ~/agU ~/agV`, then `ext --agent-dir ~/agV undo` of an uninstall wrote ext's
    /ext copy into ~/agU (once it existed again) and aimed the link there; before that, it
    failed naming ~/agU. The journal names the dir it ran in, and undo moves its paths (an
    older journal names it only through ext's own copies)."""
    from installer.commands.uninstall import Uninstall, uninstall

    install(ctx, Install(mode=mode.partition(",")[0]), yes)
    if mode.startswith("link"):
        uninstall(ctx, Uninstall(), yes)
    if mode.endswith("journal"):
        for path in (ctx.agent_dir / ".extset/journal").iterdir():
            lines = path.read_text().splitlines(True)
            head = json.loads(lines[0])
            assert head.pop("agent") == str(ctx.agent_dir)
            path.write_text(json.dumps(head) + "\n" + "".join(lines[1:]))
    moved = ctx.agent_dir.with_name("moved")
    ctx.agent_dir.rename(moved)
    here = resolve(Env(cwd=moved.parent), ctx.set_root, moved)

    assert undo(here, Undo(), yes).applied
    assert not ctx.agent_dir.exists()  # nothing written where the dir was
    for link in (moved / "extensions").iterdir() if (moved / "extensions").exists() else ():
        if link.is_symlink():
            assert not os.readlink(link).startswith(str(ctx.agent_dir) + os.sep), link
    if mode.startswith("link"):  # the uninstall taken back: the set's links and the /ext link, live
        assert (moved / "extensions/alpha.ts").resolve() == ctx.set_root / "extensions/alpha.ts"
        assert (moved / "extensions/ext-command.ts").resolve().is_file()
    else:  # the install taken back: settings.json as the user had it
        assert json.loads((moved / "settings.json").read_text()) == {"theme": "dark"}


def test_undo_through_another_name_of_the_same_dir_moves_nothing(ctx: Context) -> None:
    """helper-19's review: a dir reached through a link read as moved, and undo rewrote each
    link it put back to the other name."""
    from installer.commands.uninstall import Uninstall, uninstall

    install(ctx, Install(), yes)
    link = ctx.agent_dir / "extensions" / "ext-command.ts"
    made = os.readlink(link)
    uninstall(ctx, Uninstall(), yes)
    other = ctx.agent_dir.with_name("other-name")
    other.symlink_to(ctx.agent_dir)

    assert undo(resolve(Env(cwd=other.parent), ctx.set_root, other), Undo(), yes).applied
    assert os.readlink(link) == made


def test_undo_of_a_disable_names_the_link_another_installer_made_again(
    ctx: Context, tmp_path: Path
) -> None:
    """A trial (helper-41): dotbot made `alpha.ts` again after `ext disable alpha`; undo named
    `alpha.ts.off`, which had not changed, and its fix was 'undo by hand'. It names the place
    taken again, with the `rm` that clears it; pasted, the next undo goes through."""
    import subprocess

    from installer.commands.toggle import switch

    install(ctx, Install(), yes)
    switch(ctx, ["alpha"], False, False, False, yes)
    off = ctx.agent_dir / "extensions" / "alpha.ts.off"
    os.symlink(os.readlink(off), ctx.agent_dir / "extensions" / "alpha.ts")  # the other tool

    with pytest.raises(ExtError) as refused:
        undo(ctx, Undo(), yes)

    assert "extensions/alpha.ts is taken again, by a link to " in refused.value.message
    assert "alpha.ts.off (ext moved" not in refused.value.message
    fix = refused.value.fix or ""
    assert fix.startswith(f"nothing was written; rm {ctx.agent_dir}/extensions/alpha.ts")
    command = fix.removeprefix("nothing was written; ").split(", then run `ext undo`")[0]
    subprocess.run(["bash", "-c", command], check=True, cwd=tmp_path)
    undo(ctx, Undo(), yes)
    assert os.readlink(ctx.agent_dir / "extensions" / "alpha.ts") == str(
        ctx.set_root / "extensions" / "alpha.ts"
    )
    assert not os.path.lexists(off)


@pytest.mark.parametrize(
    ("asked", "mode", "said", "end"),
    [
        (("alpha", "beta"), "link", "this run finishes the job", "finished-by-next-run"),
        # helper-76: a plain install would put back what the killed run took out
        ((), "link", "`ext install --skip alpha,beta` finishes it", "superseded"),
        # helper-78: the same names in another order; a killed run in another mode than the
        # one this run is told (a plain install takes the killed run's mode, to finish it)
        (("beta", "alpha"), "link", "this run finishes the job", "finished-by-next-run"),
        (("alpha", "beta"), "register", "`ext install --skip alpha,beta` finishes", "superseded"),
    ],
)
def test_a_run_cut_short_is_finished_only_by_the_same_run_asked_the_same(
    ctx: Context, asked: tuple[str, ...], mode: str, said: str, end: str
) -> None:
    from installer.engine import journal

    folder = journal.journal_dir(ctx.agent_dir)
    folder.mkdir(parents=True)
    killed = folder / "20261129T120000.000000-999999-install.jsonl"  # its lock is free: dead
    head = {"journal": 1, "command": "install", "asked": ["--skip", "alpha,beta"], "mode": mode}
    steps = [head, {"op": "mkdir", "path": "extensions/.off"}]
    killed.write_text("".join(json.dumps(o) + "\n" for o in steps))
    result = install(ctx, Install(skip=asked, mode="link"), yes)
    assert any(said in w for w in result.plan.warnings), result.plan.warnings
    assert result.applied
    assert json.loads(killed.read_text().splitlines()[-1]) == {"end": end}
