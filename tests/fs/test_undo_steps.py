"""`ext undo` for each kind of step it takes back, from journals written as ext writes them.

The runs that journal these steps (`ext adopt`'s copies, consent approvals, folders made and
removed, a run killed part-way) are slow or start ext; here the journal is written by hand and
undo is judged by what it plans, what it leaves on disk and what it refuses.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.undo import Undo, undo
from installer.consent.store import store_path
from installer.engine import journal
from installer.engine.transaction import encode
from installer.ground import trees
from installer.ground.context import Context
from installer.ground.errors import ExtError
from installer.ground.state import read_state_text, write_state_text
from tests.helpers import build_tree, context, snapshot, yes

# pid 99999999 is above any pid_max: the run that wrote it is gone (a live pid would be a run
# still at work, which undo refuses to judge)
NAME = "20261128T000000.000000-99999999-install.jsonl"


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    root = build_tree(tmp_path / "set", {"extensions/beta.ts": "b"})
    return context(root, build_tree(tmp_path / "agent", {"settings.json": "{}"}))


def ran(
    ctx: Context,
    *steps: dict[str, object],
    closed: bool = True,
    command: str = "install",
    end: str = "ok",
) -> None:
    """A journal of one run with these steps, closed with `end`; without it when not closed."""
    head = {"journal": 1, "command": command, "started": "2026-11-28T09:00:00.123456"}
    objs = [head, *steps, *([{"end": end}] if closed else [])]
    path = journal.journal_dir(ctx.agent_dir) / NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))


def planned(ctx: Context) -> list[tuple[str, str, str | None]]:
    return [(a.action, a.path, a.target) for a in undo(ctx, Undo(dry_run=True), yes).plan.changes]


def refusal(ctx: Context) -> ExtError:
    before = snapshot(ctx.agent_dir), snapshot(ctx.set_root)
    with pytest.raises(ExtError) as err:
        undo(ctx, Undo(), yes)
    assert (snapshot(ctx.agent_dir), snapshot(ctx.set_root)) == before  # nothing was written
    return err.value


def changed_since(err: ExtError, command: str = "install") -> str:
    prefix = f"cannot undo `ext {command}` of 2026-11-28T09:00:00: changed since it ran: "
    assert err.message.startswith(prefix), err.message
    return err.message[len(prefix) :]


def outside(ctx: Context) -> dict[str, tuple[str, str]]:
    """The agent dir without ext's own bookkeeping."""
    return {k: v for k, v in snapshot(ctx.agent_dir).items() if not k.startswith(".extset")}


# `ext adopt`: a file or folder copied into the set, the original moved aside, a link in its place


def adopted(ctx: Context, name: str, spec: dict[str, str | None], kind: str = "extensions") -> Path:
    """The disk and journal `ext adopt` leaves for <kind>/<name>: a copy in the set."""
    dest = ctx.set_root / kind / name
    bak = ctx.agent_dir / kind / f"{name}.bak"
    made = [] if dest.parent.exists() else [{"op": "mkdir", "path": str(dest.parent)}]
    if "" in spec:  # a single file
        build_tree(bak.parent, {bak.name: spec[""]})
        build_tree(dest.parent, {name: spec[""]})
    else:
        build_tree(bak, dict(spec))
        build_tree(dest, dict(spec))
    (ctx.agent_dir / kind / name).symlink_to(dest)
    ran(
        ctx,
        *made,
        {
            "op": "copy",
            "from": f"{kind}/{name}",
            "file": str(dest),
            "entries": trees.entries(dest),
        },
        {"op": "rename", "path": f"{kind}/{name}", "to": f"{kind}/{name}.bak"},
        {"op": "symlink", "path": f"{kind}/{name}", "target": str(dest)},
        command="adopt",
    )
    return dest


def test_undo_of_an_adopt_takes_the_copy_out_of_the_set_and_the_original_back(ctx: Context) -> None:
    dest = adopted(ctx, "tool", {"index.ts": "// tool", "lib/util.ts": "// util"})
    plan = undo(ctx, Undo(dry_run=True), yes).plan
    assert plan.changes[0].detail == "reverses `ext adopt` of 2026-11-28T09:00:00"
    assert planned(ctx) == [
        ("unlink", "extensions/tool", None),
        ("restore", "extensions/tool.bak", "extensions/tool"),
        ("unlink", str(dest), None),
    ]
    undo(ctx, Undo(), yes)
    assert not os.path.lexists(dest)
    assert snapshot(ctx.set_root) == {
        "extensions": ("dir", ""),
        "extensions/beta.ts": ("file", b"b".hex()),
    }
    assert outside(ctx)["extensions/tool/lib/util.ts"] == ("file", b"// util".hex())
    assert "extensions/tool.bak" not in outside(ctx)


def test_the_kind_folder_adopt_made_in_the_set_goes_with_the_copy(ctx: Context) -> None:
    dest = adopted(ctx, "fix.md", {"": "fix it"}, kind="prompts")
    assert planned(ctx)[-2:] == [("unlink", str(dest), None), ("rmdir", str(dest.parent), None)]
    undo(ctx, Undo(), yes)
    assert not os.path.lexists(dest.parent)
    assert outside(ctx)["prompts/fix.md"] == ("file", b"fix it".hex())


def test_undo_of_an_adopted_file(ctx: Context) -> None:
    dest = adopted(ctx, "one.ts", {"": "// one"})
    undo(ctx, Undo(), yes)
    assert not os.path.lexists(dest)
    assert outside(ctx)["extensions/one.ts"] == ("file", b"// one".hex())


def test_a_copy_edited_in_the_set_since_is_refused(ctx: Context) -> None:
    dest = adopted(ctx, "tool", {"index.ts": "// tool"})
    (dest / "index.ts").write_text("// the user's edit")
    err = refusal(ctx)
    assert (
        changed_since(err, "adopt") == f"{dest} (ext copied it into the set from extensions/tool)"
    )
    assert err.fix.endswith("or undo by hand")


def test_a_copy_removed_from_the_set_since_is_not_taken_again(ctx: Context) -> None:
    dest = adopted(ctx, "one.ts", {"": "// one"})
    dest.unlink()
    (ctx.agent_dir / "extensions" / "one.ts").unlink()
    (ctx.agent_dir / "extensions" / "one.ts").symlink_to(dest)  # a dangling link, as ext left it
    assert planned(ctx) == [
        ("unlink", "extensions/one.ts", None),
        ("restore", "extensions/one.ts.bak", "extensions/one.ts"),
    ]
    undo(ctx, Undo(), yes)
    assert outside(ctx)["extensions/one.ts"] == ("file", b"// one".hex())


# consent: the approvals store, put back as it was


def approved(ctx: Context, before: str | None, after: str) -> Path:
    store = store_path(ctx.agent_dir)
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_text(after)
    step = {"op": "file", "file": str(store), "before": encode(before), "after": encode(after)}
    ran(ctx, step, command="consent approve")
    return store


def test_undo_of_an_approval_puts_the_earlier_approvals_back(ctx: Context) -> None:
    store = approved(ctx, '{"approved": []}\n', '{"approved": ["a"]}\n')
    shown = str(store.relative_to(ctx.agent_dir))  # as the plan's other paths are shown
    assert planned(ctx) == [("restore", shown, "its earlier approvals")]
    undo(ctx, Undo(), yes)
    assert store.read_text() == '{"approved": []}\n'


def test_undo_of_the_first_approval_removes_the_store(ctx: Context) -> None:
    store = approved(ctx, None, '{"approved": ["a"]}\n')
    undo(ctx, Undo(), yes)
    assert not store.exists()


def test_approvals_changed_since_are_refused(ctx: Context) -> None:
    store = approved(ctx, None, '{"approved": ["a"]}\n')
    store.write_text('{"approved": ["a", "b"]}\n')
    err = refusal(ctx)
    assert err.message == (
        "cannot undo `ext consent approve` of 2026-11-28T09:00:00: changed since it ran: "
        f"{store} (as ext wrote it)"
    )


def test_an_approvals_store_that_is_a_link_now_is_refused_never_written_through(
    ctx: Context, tmp_path: Path
) -> None:
    store, elsewhere = store_path(ctx.agent_dir), tmp_path / "elsewhere.json"
    store.parent.mkdir(parents=True, exist_ok=True)
    step = {"op": "file", "file": str(store), "before": encode(None), "after": encode("{}\n")}
    ran(ctx, {"op": "symlink", "path": "extensions/x.ts", "target": "/set/x.ts"}, step)
    os.symlink(elsewhere, store)  # dangling: it reads as "no file", the state before the run
    build_tree(ctx.agent_dir, {"extensions/x.ts": "mine"})  # and the older step is changed too
    err = refusal(ctx)
    assert changed_since(err) == (
        f"{store} is a symlink now (to {elsewhere}), not the file ext left there; "
        "extensions/x.ts (ext left a link to /set/x.ts)"
    )
    assert err.fix == (
        f"nothing was written; remove the link (rm {store}: only the link goes), "
        "then run `ext undo` again"
    )
    assert not elsewhere.exists()


def test_approvals_already_as_they_were_leave_nothing_to_undo(ctx: Context) -> None:
    store = approved(ctx, '{"approved": []}\n', '{"approved": ["a"]}\n')
    store.write_text('{"approved": []}\n')
    assert planned(ctx) == []


# folders ext made or removed


def test_a_folder_ext_made_goes_and_one_it_removed_comes_back(ctx: Context) -> None:
    (ctx.agent_dir / "prompts").mkdir()
    ran(ctx, {"op": "rmdir", "path": "themes"}, {"op": "mkdir", "path": "prompts"})
    assert planned(ctx) == [("rmdir", "prompts", None), ("mkdir", "themes", None)]
    undo(ctx, Undo(), yes)
    assert (ctx.agent_dir / "themes").is_dir()
    assert not os.path.lexists(ctx.agent_dir / "prompts")


def test_folder_steps_the_disk_never_saw_are_skipped(ctx: Context) -> None:
    (ctx.agent_dir / "themes").mkdir()  # never removed
    ran(ctx, {"op": "rmdir", "path": "themes"}, {"op": "mkdir", "path": "prompts"})  # never made
    assert planned(ctx) == []


def test_a_file_where_ext_made_or_removed_a_folder_is_refused(ctx: Context) -> None:
    build_tree(ctx.agent_dir, {"prompts": "a file", "themes": "another"})
    ran(ctx, {"op": "rmdir", "path": "themes"}, {"op": "mkdir", "path": "prompts"})
    assert changed_since(refusal(ctx)) == "prompts; themes"


def test_a_folder_made_removed_and_made_again_is_judged_step_by_step(ctx: Context) -> None:
    (ctx.agent_dir / "prompts").mkdir()
    ran(
        ctx,
        {"op": "mkdir", "path": "prompts"},
        {"op": "rmdir", "path": "prompts"},
        {"op": "mkdir", "path": "prompts"},
    )
    assert planned(ctx) == [
        ("rmdir", "prompts", None),
        ("mkdir", "prompts", None),
        ("rmdir", "prompts", None),
    ]
    undo(ctx, Undo(), yes)
    assert not os.path.lexists(ctx.agent_dir / "prompts")


# links changed one after the other: each judged as if the later ones were taken back


def test_a_link_pointed_twice_goes_back_to_its_first_target(ctx: Context) -> None:
    (ctx.agent_dir / "extensions").mkdir()
    (ctx.agent_dir / "extensions" / "a.ts").symlink_to("/t3")
    ran(
        ctx,
        {"op": "relink", "path": "extensions/a.ts", "target": "/t2", "old": "/t1"},
        {"op": "relink", "path": "extensions/a.ts", "target": "/t3", "old": "/t2"},
    )
    assert planned(ctx) == [
        ("relink", "extensions/a.ts", "/t2"),
        ("relink", "extensions/a.ts", "/t1"),
    ]
    undo(ctx, Undo(), yes)
    assert os.readlink(ctx.agent_dir / "extensions" / "a.ts") == "/t1"


def test_a_link_removed_then_made_anew_is_put_back_as_it_was(ctx: Context) -> None:
    (ctx.agent_dir / "extensions").mkdir()
    (ctx.agent_dir / "extensions" / "a.ts").symlink_to("/new")
    ran(
        ctx,
        {"op": "unlink", "path": "extensions/a.ts", "target": "/old"},
        {"op": "symlink", "path": "extensions/a.ts", "target": "/new"},
    )
    assert planned(ctx) == [
        ("unlink", "extensions/a.ts", None),
        ("link", "extensions/a.ts", "/old"),
    ]
    undo(ctx, Undo(), yes)
    assert os.readlink(ctx.agent_dir / "extensions" / "a.ts") == "/old"


def test_a_link_repointed_then_removed_comes_back_at_its_first_target(ctx: Context) -> None:
    (ctx.agent_dir / "extensions").mkdir()
    ran(
        ctx,
        {"op": "relink", "path": "extensions/a.ts", "target": "/t2", "old": "/t1"},
        {"op": "unlink", "path": "extensions/a.ts", "target": "/t2"},
    )
    assert planned(ctx) == [
        ("link", "extensions/a.ts", "/t2"),
        ("relink", "extensions/a.ts", "/t1"),
    ]
    undo(ctx, Undo(), yes)
    assert os.readlink(ctx.agent_dir / "extensions" / "a.ts") == "/t1"


def test_a_step_this_ext_does_not_know_is_refused_not_guessed(ctx: Context) -> None:
    ran(ctx, {"op": "teleport", "path": "extensions/a.ts"})  # from a newer ext
    assert changed_since(refusal(ctx)) == "extensions/a.ts"


def test_ext_s_record_goes_back_to_what_it_was(ctx: Context) -> None:
    write_state_text(ctx.agent_dir, '{"first": 1}\n')
    step = {"op": "state", "before": encode('{"first": 1}\n'), "after": encode('{"second": 2}\n')}
    ran(ctx, step)
    write_state_text(ctx.agent_dir, '{"second": 2}\n')
    assert planned(ctx) == [("restore", ".extset/state.json", "its earlier record")]
    undo(ctx, Undo(), yes)
    assert read_state_text(ctx.agent_dir) == '{"first": 1}\n'


def test_a_link_pointed_elsewhere_since_is_refused(ctx: Context) -> None:
    (ctx.agent_dir / "extensions").mkdir()
    (ctx.agent_dir / "extensions" / "a.ts").symlink_to("/the-user-s")
    ran(ctx, {"op": "relink", "path": "extensions/a.ts", "target": "/t2", "old": "/t1"})
    assert changed_since(refusal(ctx)) == "extensions/a.ts (ext left a link to /t2)"


# a run killed part-way: the steps journaled before it was killed, some of them never taken


def test_a_run_cut_short_reverses_the_steps_it_took_and_skips_the_rest(ctx: Context) -> None:
    ext = ctx.agent_dir / "extensions"
    build_tree(ext, {"gone.ts": Path("/new-gone"), "moved.ts.bak": "moved", "kept.ts": "kept"})
    (ext / "re.ts").symlink_to("/new")
    (ext / "stay.ts").symlink_to("/old-stay")
    ran(
        ctx,
        {"op": "unlink", "path": "extensions/un.ts", "target": "/old-un"},  # taken
        {"op": "relink", "path": "extensions/re.ts", "target": "/new", "old": "/old"},  # taken
        {"op": "rename", "path": "extensions/moved.ts", "to": "extensions/moved.ts.bak"},  # taken
        {"op": "rename", "path": "extensions/kept.ts", "to": "extensions/kept.ts.bak"},  # not
        {"op": "relink", "path": "extensions/stay.ts", "target": "/new-stay", "old": "/old-stay"},
        {"op": "unlink", "path": "extensions/gone.ts", "target": "/new-gone"},  # not taken
        closed=False,
    )
    assert planned(ctx) == [
        ("restore", "extensions/moved.ts.bak", "extensions/moved.ts"),
        ("relink", "extensions/re.ts", "/old"),
        ("link", "extensions/un.ts", "/old-un"),
    ]
    undo(ctx, Undo(), yes)
    assert outside(ctx) == {
        "settings.json": ("file", b"{}".hex()),
        "extensions": ("dir", ""),
        "extensions/un.ts": ("link", "/old-un"),
        "extensions/re.ts": ("link", "/old"),
        "extensions/moved.ts": ("file", b"moved".hex()),
        "extensions/kept.ts": ("file", b"kept".hex()),
        "extensions/stay.ts": ("link", "/old-stay"),
        "extensions/gone.ts": ("link", "/new-gone"),
    }


def test_a_link_a_cut_short_run_never_made_is_not_refused(ctx: Context) -> None:
    build_tree(ctx.agent_dir, {"extensions/a.ts": "the user's own"})
    step = {"op": "symlink", "path": "extensions/a.ts", "target": "/t"}
    ran(ctx, step, closed=False)
    assert planned(ctx) == []
    ran(ctx, step)  # the same step in a run that finished: ext's link was replaced since
    assert changed_since(refusal(ctx)) == "extensions/a.ts (ext left a link to /t)"


def test_steps_of_a_cut_short_run_that_were_changed_since_are_refused(ctx: Context) -> None:
    build_tree(ctx.agent_dir, {"extensions/un.ts": "a file", "extensions/mv.ts": "both"})
    build_tree(ctx.agent_dir, {"extensions/mv.ts.bak": "sides"})
    ran(
        ctx,
        {"op": "unlink", "path": "extensions/un.ts", "target": "/old-un"},
        {"op": "rename", "path": "extensions/mv.ts", "to": "extensions/mv.ts.bak"},
        closed=False,
    )
    assert changed_since(refusal(ctx)) == (
        "extensions/mv.ts is taken again, by a file (ext had moved what was there to "
        "extensions/mv.ts.bak); extensions/un.ts (ext removed a link there)"
    )


# settings.json: ext's keys taken back by a merge with the file as it is now


def wrote(ctx: Context, before: str, after: str, now: str, intent: bool = True) -> Path:
    """A run that wrote settings.json (`before` -> `after`), the file holding `now` since."""
    settings = ctx.agent_dir / "settings.json"
    settings.write_text(now)
    first = [{"op": "settings", "file": str(settings), "before": encode(before)}] if intent else []
    step = {"op": "write", "file": str(settings), "before": encode(before), "after": encode(after)}
    ran(ctx, *first, step, {"op": "mkdir", "path": "themes"})  # a step after the write
    return settings


def test_a_settings_write_is_taken_back_once_not_twice(ctx: Context) -> None:
    settings = wrote(
        ctx, '{"theme": "dark"}', '{"theme": "dark", "a": 1}', '{"theme": "dark", "a": 1}'
    )
    assert planned(ctx) == [("restore", "settings.json", "ext's keys as they were (others' kept)")]
    undo(ctx, Undo(), yes)
    assert json.loads(settings.read_text()) == {"theme": "dark"}


def test_a_settings_write_already_taken_back_by_hand_leaves_nothing_to_undo(ctx: Context) -> None:
    wrote(ctx, '{"theme": "dark"}', '{"theme": "dark", "a": 1}', '{"theme": "dark"}', intent=False)
    assert planned(ctx) == []


def test_settings_changed_since_name_each_key_and_its_fix(ctx: Context) -> None:
    settings = wrote(ctx, "{}", '{"a": 1, "b": 2}', '{"a": 3, "b": 4}')
    err = refusal(ctx)
    assert changed_since(err) == (
        f'{settings}: "a" is 3 now; ext wrote 1, it was absent before; '
        '"b" is 4 now; ext wrote 2, it was absent before'
    )
    assert err.fix == (
        'nothing was written; remove "a" from settings.json yourself (or set it to 1); '
        'remove "b" from settings.json yourself (or set it to 2), then run `ext undo` again'
    )


def test_settings_that_are_no_json_now_are_refused_with_where_to_edit(ctx: Context) -> None:
    settings = wrote(ctx, "{}", '{"a": 1}', "{oops")
    err = refusal(ctx)
    assert changed_since(err) == (
        f"{settings}: settings.json: not valid JSON (Expecting property name enclosed in double "
        "quotes) at line 1, column 2; nothing was changed"
    )
    assert err.fix == (
        "nothing was written; edit settings.json at line 1, column 2 by hand, "
        "then run `ext undo` again"
    )


def test_settings_deleted_since_ask_for_the_file_and_undo_once(ctx: Context) -> None:
    settings = wrote(ctx, "{}", '{"a": 1}', "{}")
    settings.unlink()
    err = refusal(ctx)
    assert changed_since(err) == f"{settings}: settings.json was deleted after ext's run changed it"
    assert err.fix == (
        "nothing was written; write settings.json again (`{}` will do), then run `ext undo` again"
    )


# A settings intent with no write after it: the merge changed nothing, unless the run was
# killed in it (its last step, in a run that did not close itself)


def merged_nothing(ctx: Context, *after: dict[str, object], closed: bool = True) -> Path:
    """A run whose settings merge changed nothing (`{}` stayed), pi writing the file since."""
    settings = ctx.agent_dir / "settings.json"
    intent = {"op": "settings", "file": str(settings), "before": encode("{}")}
    ran(ctx, intent, *after, closed=closed)
    settings.write_text('{"theme": "light"}')  # pi's own change, after the run
    return settings


def test_a_merge_that_changed_nothing_leaves_nothing_to_undo_in_settings(ctx: Context) -> None:
    settings = merged_nothing(ctx)
    assert planned(ctx) == []
    undo(ctx, Undo(), yes)
    assert settings.read_text() == '{"theme": "light"}'


def test_a_merge_that_changed_nothing_does_not_stop_undoing_the_steps_after_it(
    ctx: Context,
) -> None:
    (ctx.agent_dir / "themes").mkdir()
    for closed in (True, False):  # the run closed itself, or was killed after the merge
        settings = merged_nothing(ctx, {"op": "mkdir", "path": "themes"}, closed=closed)
        assert planned(ctx) == [("rmdir", "themes", None)]
    undo(ctx, Undo(), yes)
    assert not (ctx.agent_dir / "themes").exists()
    assert settings.read_text() == '{"theme": "light"}'


@pytest.mark.parametrize("end", [None, "finished-by-next-run", "superseded"])
def test_a_run_killed_in_its_settings_merge_is_judged_by_the_bytes_before(
    ctx: Context, end: str | None
) -> None:
    settings = ctx.agent_dir / "settings.json"
    intent = {"op": "settings", "file": str(settings), "before": encode("{}")}
    ran(ctx, intent, closed=end is not None, end=end or "")
    assert planned(ctx) == []  # the file holds the bytes before: the write never happened
    settings.write_text('{"theme": "light"}')  # the killed run's write, or anyone's since
    assert changed_since(refusal(ctx)) == (
        f"{settings} (a run was killed while writing it: compare it with what you expect)"
    )


@pytest.mark.parametrize("dry_run", [True, False])
def test_nothing_to_undo_is_an_empty_undo_plan(ctx: Context, dry_run: bool) -> None:
    """With no journal, `ext --json undo` still reports the undo command, and writes nothing."""
    before = snapshot(ctx.agent_dir)
    result = undo(ctx, Undo(dry_run=dry_run), yes)
    assert result.to_json() == {
        "command": "undo",
        "changed": False,
        "dry_run": dry_run,
        "actions": [],
        "warnings": [],
    }
    assert snapshot(ctx.agent_dir) == before
