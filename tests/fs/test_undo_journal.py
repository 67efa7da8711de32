"""`ext undo` and `ext history` as they read the journal: which run, what it says, and why not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.undo import History, Undo, history, target_record, undo
from installer.commands.uninstall import Uninstall, uninstall
from installer.engine import journal
from installer.ground.context import Context
from installer.ground.errors import ExtError
from installer.render.history import lines
from tests.helpers import build_tree, context, snapshot, yes

STAMP = "20261129-101500"  # the helpers' clock


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    root = build_tree(tmp_path / "set", {"extensions/alpha.ts": "// a", "extensions/beta.ts": "b"})
    agent = build_tree(tmp_path / "agent", {"extensions/alpha.ts": "// the user's own alpha"})
    return context(root, agent)


def write(agent: Path, name: str, *objs: dict[str, object]) -> None:
    path = journal.journal_dir(agent) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))


def head(command: str, started: str = "2026-11-29T10:00:00.123456") -> dict[str, object]:
    return {"journal": 1, "command": command, "started": started}


STEP = {"op": "mkdir", "path": "x"}


def refusal(ctx: Context) -> ExtError:
    before = snapshot(ctx.agent_dir)
    with pytest.raises(ExtError) as err:
        undo(ctx, Undo(), yes)
    assert snapshot(ctx.agent_dir) == before
    return err.value


def test_history_is_one_aligned_line_a_run_newest_first(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"extensions/a.ts": "// a"})
    agent = build_tree(tmp_path / "agent", {"settings.json": "{}"})
    assert lines(history(context(root, agent), History())) == ["no history yet"]
    write(agent, "20261127T000000.000000-1-install.jsonl", head("install"), STEP, {"end": "ok"})
    write(
        agent,
        "20261128T000000.000000-1-settings-migrate.jsonl",
        head("settings migrate", "2026-11-28T09:00:00"),
        *[STEP] * 12,
        {"end": "ok"},
        {"undone": "2026-11-29T00:00:00"},
    )
    write(agent, "20261129T000000.000000-1-undo.jsonl", head("undo", "2026-11-29T00:00:00"))
    result = history(context(root, agent), History())
    assert lines(result) == [
        "2026-11-29T00:00:00  undo              interrupted   0 steps",
        "2026-11-28T09:00:00  settings migrate  ok           12 steps  (undone)",
        "2026-11-29T10:00:00  install           ok            1 step",
    ]
    # helper-72: what follows the steps stays in one column, `1 step` or `16 steps`
    one = result._replace(rows=[{**r, "set": "tools"} for r in result.rows])
    assert [line.index("for tools") for line in lines(one)] == [62] * 3
    rows = result.to_json()["history"]
    assert rows[1] == {
        "journal": "20261128T000000.000000-1-settings-migrate",
        "command": "settings migrate",
        "asked": [],  # a run asked with no words of its own, or by an older ext
        "started": "2026-11-28T09:00:00",
        "status": "ok",
        "steps": 12,
        "undone": "2026-11-29T00:00:00",
        "set": None,  # a journal of an older ext does not name it
    }
    assert result.to_json()["agent_dir"] == str(agent)


def test_history_names_each_run_as_it_was_asked(tmp_path: Path) -> None:
    """A selection leaves no other record in link mode (helper-72: history said `install  ok
    2 steps`, not which items the run left out); nor did a switch say what it switched."""
    from datetime import UTC, datetime

    from installer.commands.toggle import switch, switch_both

    root = build_tree(tmp_path / "set", {f"extensions/{n}.ts": "// x" for n in ("a", "b", "c")})
    agent = tmp_path / "agent"
    agent.mkdir()

    def at(minute: int) -> Context:
        return context(root, agent, datetime(2026, 11, 29, 10, minute, tzinfo=UTC))

    install(at(0), Install(), yes)
    install(at(1), Install(skip=("c",)), yes)
    install(at(2), Install(only=("a", "c"), reseed=True), yes)
    switch(at(3), ["c"], False, False, False, yes)
    switch_both(at(4), ["c"], ["a"], False, yes)

    result = history(at(5), History())
    assert [line[21:].split("  ok")[0].rstrip() for line in lines(result)] == [
        "toggle --on c --off a",
        "disable c",
        "install --only a,c --reseed",
        "install --skip c",
        "install",
    ]
    assert result.to_json()["history"][1]["asked"] == ["c"]


def test_undo_takes_the_newest_run_not_undone_rolled_back_or_empty(tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    assert target_record(agent) is None
    write(agent, "20261120T000000.000000-1-install.jsonl", head("install"), STEP, {"end": "ok"})
    write(agent, "20261121T000000.000000-1-install.jsonl", head("install"), STEP)  # interrupted
    write(agent, "20261122T000000.000000-1-install.jsonl", head("install"), {"end": "ok"})
    write(agent, "20261123T000000.000000-1-x.jsonl", head("install"), STEP, {"end": "rolled-back"})
    write(
        agent,
        "20261124T000000.000000-1-add.jsonl",
        head("add"),
        STEP,
        {"end": "ok"},
        {"undone": "2026-11-25T00:00:00"},
    )
    write(agent, "20261125T000000.000000-1-undo.jsonl", head("undo"), STEP, {"end": "ok"})
    rec = target_record(agent)
    assert rec is not None and rec.name == "20261121T000000.000000-1-install"


def test_nothing_to_undo_plans_nothing(ctx: Context) -> None:
    result = undo(ctx, Undo(), yes)
    assert (result.plan.command, result.plan.is_empty, result.applied) == ("undo", True, False)


def test_the_undo_plan_names_each_reversal_and_the_run_it_reverses(ctx: Context) -> None:
    install(ctx, Install(), yes)
    plan = undo(ctx, Undo(dry_run=True), yes).plan
    name = ctx.manifest.name
    assert plan.changes[0].detail == f"reverses `ext install` of 2026-11-29T10:15:00 for {name}"
    # The dir held no set before: ext's copy of its agent file goes, said as an uninstall says it.
    copies = [a for a in plan.changes if a.path.startswith(".extset/agent")]
    assert {a.detail for a in copies} == {"ext's copy", "ext's copies of its agent files"}
    assert all(a.detail is None for a in plan.changes[1:] if a not in copies)
    steps = [(a.action, a.path, a.target) for a in plan.changes]
    assert ("restore", f"extensions/alpha.ts.bak.{STAMP}", "extensions/alpha.ts") in steps
    assert ("restore", ".extset/state.json", "no record (there was none before)") in steps
    assert ("unlink", "extensions/beta.ts", None) in steps
    assert steps[0] == (
        "restore",
        ".extset/state.json",
        "no record (there was none before)",
    )  # newest first


def test_a_refusal_names_what_ext_left_at_each_changed_place(ctx: Context, tmp_path: Path) -> None:
    install(ctx, Install(), yes)
    ext = ctx.agent_dir / "extensions"
    (ext / f"alpha.ts.bak.{STAMP}").rename(tmp_path / "moved")  # the user took the backup away
    (ext / "beta.ts").unlink()
    (ext / "beta.ts").symlink_to("/elsewhere/beta.ts")
    err = refusal(ctx)
    beta = ctx.set_root / "extensions" / "beta.ts"
    assert err.message == (
        "cannot undo `ext install` of 2026-11-29T10:15:00: changed since it ran: "
        f"extensions/beta.ts (ext left a link to {beta}); "
        f"extensions/alpha.ts.bak.{STAMP} (ext moved extensions/alpha.ts there)"
    )
    assert err.fix == (
        "nothing was written; put each path back to what ext left there (named above), "
        "or undo by hand"
    )


def test_a_place_ext_emptied_that_holds_something_now_is_refused(ctx: Context) -> None:
    install(ctx, Install(), yes)
    uninstall(ctx, Uninstall(), yes)
    (ctx.agent_dir / "extensions" / "beta.ts").write_text("the user's own beta")
    err = refusal(ctx)
    assert "extensions/beta.ts (ext removed a link there)" in err.message


def test_undo_of_an_uninstall_puts_the_links_back(ctx: Context) -> None:
    install(ctx, Install(), yes)
    installed = snapshot(ctx.agent_dir)
    uninstall(ctx, Uninstall(), yes)
    plan = undo(ctx, Undo(dry_run=True), yes).plan
    beta = str(ctx.set_root / "extensions" / "beta.ts")
    steps = [(a.action, a.path, a.target) for a in plan.changes]
    assert ("link", "extensions/beta.ts", beta) in steps
    undo(ctx, Undo(), yes)
    links = {k: v for k, v in snapshot(ctx.agent_dir).items() if not k.startswith(".extset")}
    assert links == {k: v for k, v in installed.items() if not k.startswith(".extset")}


def test_a_folder_ext_made_stays_when_it_holds_the_user_s_files(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"prompts/fix.md": "fix it"})
    ctx = context(root, build_tree(tmp_path / "agent", {"settings.json": "{}"}))
    install(ctx, Install(), yes)
    (ctx.agent_dir / "prompts" / "mine.md").write_text("mine")
    plan = undo(ctx, Undo(dry_run=True), yes).plan
    assert ("rmdir", "prompts") not in [(a.action, a.path) for a in plan.changes]
    undo(ctx, Undo(), yes)
    assert os.listdir(ctx.agent_dir / "prompts") == ["mine.md"]


def test_undo_from_another_set_names_the_set_whose_run_it_reverses(
    ctx: Context, tmp_path: Path
) -> None:
    """undo reverses the dir's last run, whichever set it was for: the plan says which."""
    from installer.ground.context import Env, resolve

    install(ctx, Install(), yes)
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})
    elsewhere = resolve(Env(cwd=tmp_path), other, ctx.agent_dir)
    plan = undo(elsewhere, Undo(dry_run=True), yes).plan
    assert plan.changes[0].detail == (
        f"reverses `ext install` of 2026-11-29T10:15:00 "
        f"for {ctx.manifest.name} at {ctx.set_root}, not this set"
    )
    assert [r["set"] for r in history(ctx, History()).to_json()["history"]] == [ctx.manifest.name]


def test_undo_after_the_set_moved_names_it_as_this_set_where_it_was(
    ctx: Context, tmp_path: Path
) -> None:
    """A trial (helper-29): the set's folder moved since the install; the undo's plan said
    the run was "for big at <old folder>, not this set"."""
    from installer.ground.context import Env, resolve

    (ctx.set_root / "extset.toml").write_text('[set]\nname = "big"\n')
    ctx = context(ctx.set_root, ctx.agent_dir)
    install(ctx, Install(), yes)
    moved = tmp_path / "moved"
    ctx.set_root.rename(moved)
    here = resolve(Env(cwd=tmp_path), moved, ctx.agent_dir)
    plan = undo(here, Undo(dry_run=True), yes).plan
    assert plan.changes[0].detail == (
        f"reverses `ext install` of 2026-11-29T10:15:00 for big, at {ctx.set_root} then"
    )


def test_a_consent_run_is_journaled_for_no_set(ctx: Context, tmp_path: Path) -> None:
    """An approval is the agent dir's, whichever set the command ran from: undo and history
    name no set for it."""
    from installer.consent import commands
    from installer.consent.journaled import journaled

    hook = {"type": "command", "command": "./guard.sh"}
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}
    proj = build_tree(tmp_path / "proj", {".claude/settings.json": json.dumps(hooks)})
    preview = commands.describe_approval(ctx.agent_dir, proj)
    commands.approve(ctx.agent_dir, proj, preview, write=journaled(ctx, "consent approve"))

    [row] = history(ctx, History()).to_json()["history"]
    assert (row["command"], row["set"]) == ("consent approve", None)


def test_an_undo_run_from_another_sets_folder_is_journaled_for_the_set_it_reverses(
    tmp_path: Path,
) -> None:
    """helper-62: `ext undo` from another set's folder reversed the right run, and history
    then said the undo was for the set it ran from."""
    mine = build_tree(tmp_path / "mine", {"extset.toml": '[set]\nname = "mine"\n',
                                          "extensions/a.ts": "// a"})  # fmt: skip
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    install(context(mine, agent), Install(yes=True), yes)

    undo(context(other, agent), Undo(), yes)

    rows = history(context(other, agent), History()).to_json()["history"]
    assert [(r["command"], r["set"]) for r in rows] == [("undo", "mine"), ("install", "mine")]


def test_history_keeps_its_columns_with_a_long_selection_or_a_wide_name() -> None:
    """helper-76: the column was as wide as its longest run, by characters: one install of
    200 names pushed every row right, and `disable prompt:日本` stood a column short."""
    from installer.commands.undo import Journals
    from installer.ground.screen import cells

    def row(command: str, asked: list[str]) -> dict[str, object]:
        at = "2026-11-29T10:00:00"
        return {"command": command, "asked": asked, "started": at, "status": "ok", "steps": 1}

    many = ",".join(f"item{n}" for n in range(200))
    rows = (row("disable", ["prompt:日本"]), row("install", ["--only", many]), row("undo", []))
    shown = lines(Journals(Path("/a"), tuple({**r, "undone": None} for r in rows)))
    assert "install --only item0,item1,…(200 names)  ok" in shown[1]
    assert len({cells(line.split("  ok")[0]) for line in shown}) == 1, shown
