"""The link engine on real folders: each rule, what --dry-run promises, and `ext list`."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.undo import Undo, undo
from installer.commands.uninstall import Uninstall, uninstall
from installer.engine.plan import Plan
from installer.engine.result import PlanResult
from installer.links.states import items
from tests.helpers import AT, TOOLS_SET, build_tree, context, set_links, snapshot, yes

STAMP = "20261129-101500"
DESTS = (
    "extensions/notify.ts",
    "extensions/timer.js",
    "extensions/gamma",
    "skills/review",
    "prompts/fix.md",
    "themes/dark.json",
)


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(TOOLS_SET))


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    folder = tmp_path / "agent"
    folder.mkdir()
    return folder


def run(set_root: Path, agent: Path, *, dry_run: bool = False, **kw: object) -> PlanResult:
    only = tuple(kw.pop("only", []))  # type: ignore[call-overload]
    skip = tuple(kw.pop("skip", []))  # type: ignore[call-overload]
    options = Install(only=only, skip=skip, dry_run=dry_run)
    return install(context(set_root, agent, **kw), options, yes)  # type: ignore[arg-type]


def user_entries(agent: Path) -> dict[str, tuple[str, str]]:
    return {k: v for k, v in snapshot(agent).items() if not k.startswith(".extset")}


def test_a_fresh_install_links_every_resource_and_records_the_set(
    set_root: Path, agent: Path
) -> None:
    result = run(set_root, agent)
    assert (result.applied, result.changed, result.dry_run) == (True, True, False)
    assert set_links(agent) == {d: str(set_root / d) for d in DESTS}
    assert (agent / "extensions/ext-command.ts").is_symlink()  # and ext's own /ext
    state = json.loads((agent / ".extset" / "state.json").read_text())
    assert [(s["root"], s["name"], s["mode"]) for s in state["sets"]] == [
        (str(set_root), "tools", "link")
    ]


def test_a_second_install_plans_nothing_and_writes_nothing(set_root: Path, agent: Path) -> None:
    run(set_root, agent)
    before = snapshot(agent)
    again = run(set_root, agent)
    assert (again.applied, again.changed) == (False, False)
    assert again.plan.is_empty
    assert {a.action for a in again.plan.actions} == {"keep"}
    assert snapshot(agent) == before


def test_a_real_file_in_the_way_is_backed_up_with_its_bytes(set_root: Path, agent: Path) -> None:
    build_tree(agent, {"extensions/notify.ts": b"mine\x00\xff"})
    os.chmod(agent / "extensions/notify.ts", 0o640)
    run(set_root, agent)
    backup = agent / f"extensions/notify.ts.bak.{STAMP}"
    assert backup.read_bytes() == b"mine\x00\xff"
    assert backup.stat().st_mode & 0o777 == 0o640
    assert os.readlink(agent / "extensions/notify.ts") == str(set_root / "extensions/notify.ts")


def test_a_foreign_link_is_backed_up_as_a_link_never_followed(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    theirs = build_tree(tmp_path / "theirs", {"timer.js": "theirs\n"})
    build_tree(
        agent,
        {
            "extensions/timer.js": theirs / "timer.js",
            "prompts/fix.md": tmp_path / "nowhere.md",  # dangling
        },
    )
    run(set_root, agent)
    assert os.readlink(agent / f"extensions/timer.js.bak.{STAMP}") == str(theirs / "timer.js")
    assert os.readlink(agent / f"prompts/fix.md.bak.{STAMP}") == str(tmp_path / "nowhere.md")
    assert (theirs / "timer.js").read_text() == "theirs\n"


def test_a_real_folder_in_the_way_is_backed_up_into_dot_bak(set_root: Path, agent: Path) -> None:
    build_tree(agent, {"extensions/gamma/index.ts": "mine\n", "skills/review/SKILL.md": "mine\n"})
    run(set_root, agent)
    assert (agent / f"extensions/.bak/gamma.bak.{STAMP}/index.ts").read_text() == "mine\n"
    assert (agent / f"skills/.bak/review.bak.{STAMP}/SKILL.md").read_text() == "mine\n"
    # Nothing a host would load sits beside the link under a plain name.
    listed = sorted(os.listdir(agent / "extensions"))
    assert listed == [".bak", "ext-command.ts", "gamma", "notify.ts", "timer.js"]


def test_two_backups_in_the_same_second_get_distinct_names(set_root: Path, agent: Path) -> None:
    build_tree(agent, {"extensions/notify.ts": "first\n"})
    run(set_root, agent, only=["notify"])
    os.unlink(agent / "extensions/notify.ts")
    build_tree(agent, {"extensions/notify.ts": "second\n"})
    run(set_root, agent, only=["notify"])
    assert (agent / f"extensions/notify.ts.bak.{STAMP}").read_text() == "first\n"
    assert (agent / f"extensions/notify.ts.bak.{STAMP}-1").read_text() == "second\n"


def test_disabled_links_of_ours_stay_disabled(set_root: Path, agent: Path) -> None:
    build_tree(
        agent,
        {
            "extensions/notify.ts.off": set_root / "extensions/notify.ts",
            "extensions/.off/gamma": set_root / "extensions/gamma",
        },
    )
    result = run(set_root, agent)
    assert not (agent / "extensions/notify.ts").exists()
    assert not (agent / "extensions/gamma").exists()
    kept = {a.path for a in result.plan.actions if a.action == "keep"}
    assert kept == {"extensions/notify.ts.off", "extensions/.off/gamma"}


def test_stale_links_of_ours_are_pruned_and_foreign_ones_are_not(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    build_tree(
        agent,
        {
            "extensions/old.ts": set_root / "extensions/old.ts",
            "extensions/old.ts.off": set_root / "extensions/old.ts",
            "skills/.off/gone": set_root / "skills/gone",
            "extensions/theirs.ts": tmp_path / "gone.ts",
        },
    )
    result = run(set_root, agent)
    pruned = sorted(a.path for a in result.plan.actions if a.action == "prune")
    assert pruned == ["extensions/old.ts", "extensions/old.ts.off", "skills/.off/gone"]
    assert all(not (agent / p).is_symlink() for p in pruned)
    assert os.readlink(agent / "extensions/theirs.ts") == str(tmp_path / "gone.ts")


def test_ours_with_a_wrong_target_is_relinked(set_root: Path, agent: Path) -> None:
    build_tree(agent, {"extensions/notify.ts": set_root / "extensions/timer.js"})
    result = run(set_root, agent, only=["notify"])
    assert [(a.action, a.path) for a in result.plan.changes] == [
        ("relink", "extensions/notify.ts"),
        ("link", "extensions/ext-command.ts"),  # ext's own, whatever --only says
    ]
    assert os.readlink(agent / "extensions/notify.ts") == str(set_root / "extensions/notify.ts")
    assert not any(n.endswith(".ext-tmp") for n in os.listdir(agent / "extensions"))


def test_a_moved_set_is_relinked_not_backed_up(tmp_path: Path, agent: Path) -> None:
    first = build_tree(tmp_path / "first", dict(TOOLS_SET))
    build_tree(agent, {"extensions/.off/gamma": first / "extensions/gamma"})
    run(first, agent)
    moved = tmp_path / "moved"
    first.rename(moved)

    _mode, found = items(context(moved, agent))
    assert {i.state for i in found} == {"stale"}
    assert all("older location" in (i.note or "") for i in found)

    result = run(moved, agent)
    assert {a.action for a in result.plan.changes} == {"relink"}
    assert set_links(agent) == {
        **{d: str(moved / d) for d in DESTS if d != "extensions/gamma"},
        "extensions/.off/gamma": str(moved / "extensions/gamma"),
    }
    assert not any(".bak" in p for p in snapshot(agent))
    state = json.loads((agent / ".extset" / "state.json").read_text())
    assert [s["root"] for s in state["sets"]] == [str(moved)]
    assert run(moved, agent).plan.is_empty


def test_uninstall_removes_ours_and_keeps_backups_foreign_links_and_files(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    build_tree(
        agent,
        {
            "extensions/notify.ts": "mine\n",
            "extensions/gamma/index.ts": "mine\n",
            "extensions/theirs.ts": tmp_path / "gone.ts",
            "prompts/mine.md": "mine\n",
        },
    )
    run(set_root, agent)
    build_tree(agent, {"extensions/timer.js.off": set_root / "extensions/timer.js"})
    os.unlink(agent / "extensions/timer.js")
    result = uninstall(context(set_root, agent), Uninstall(), yes)
    assert result.applied
    # and, the set being the last, ext's copies and the folders it made and left empty
    assert {a.action for a in result.plan.changes} == {"unlink", "rmdir"}
    assert user_entries(agent) == {
        "extensions": ("dir", ""),
        "extensions/.bak": ("dir", ""),
        f"extensions/.bak/gamma.bak.{STAMP}": ("dir", ""),
        f"extensions/.bak/gamma.bak.{STAMP}/index.ts": ("file", b"mine\n".hex()),
        f"extensions/notify.ts.bak.{STAMP}": ("file", b"mine\n".hex()),
        "extensions/theirs.ts": ("link", str(tmp_path / "gone.ts")),
        "prompts": ("dir", ""),
        "prompts/mine.md": ("file", b"mine\n".hex()),
    }  # skills/ and themes/, which ext made, went with the last set
    assert not (agent / ".extset" / "state.json").exists()  # no set left: no record (undo's
    assert uninstall(context(set_root, agent), Uninstall(), yes).plan.is_empty  # journal has it)
    assert undo(context(set_root, agent), Undo(), yes).applied  # and puts it back
    assert json.loads((agent / ".extset" / "state.json").read_text())["sets"][0]["name"]


# --dry-run promises exactly what the real run does


def _messy(tmp_path: Path, set_root: Path, agent: Path) -> None:
    build_tree(
        agent,
        {
            "extensions/notify.ts": "mine\n",
            f"extensions/notify.ts.bak.{STAMP}": "an older backup\n",
            "extensions/gamma/index.ts": "mine\n",
            "extensions/timer.js": set_root / "extensions/notify.ts",
            "extensions/old.ts": set_root / "extensions/old.ts",
            "skills/review": tmp_path / "elsewhere",
            "themes/dark.json.off": set_root / "themes/dark.json",
        },
    )


@pytest.mark.parametrize("at", [AT, None], ids=["fixed-clock", "real-clock"])
def test_dry_run_shows_exactly_the_steps_the_real_run_takes(
    tmp_path: Path, set_root: Path, agent: Path, at: datetime | None
) -> None:
    _messy(tmp_path, set_root, agent)
    before = snapshot(agent)
    dry = run(set_root, agent, dry_run=True, at=at)
    assert snapshot(agent) == before, "a dry run wrote something"
    assert (dry.dry_run, dry.changed, dry.applied) == (True, True, False)
    real = run(set_root, agent, at=at)
    assert [a.without_stamp() for a in dry.plan.actions] == [
        a.without_stamp() for a in real.plan.actions
    ]
    if at is not None:
        assert dry.plan.actions == real.plan.actions
    assert {a.action for a in real.plan.changes} == {"backup", "link", "relink", "prune"}
    # Each backup the dry run named is where the real run put it.
    for a in real.plan.changes:
        if a.action == "backup":
            assert os.path.lexists(agent / (a.backup or ""))
    assert (agent / f"extensions/notify.ts.bak.{STAMP}").read_text() == "an older backup\n"


def test_dry_run_of_nothing_to_do_reports_unchanged(set_root: Path, agent: Path) -> None:
    run(set_root, agent)
    dry = run(set_root, agent, dry_run=True)
    assert (dry.dry_run, dry.changed) == (True, False)


def test_uninstall_dry_run_matches_the_real_run(set_root: Path, agent: Path) -> None:
    run(set_root, agent)
    before = snapshot(agent)
    dry = uninstall(context(set_root, agent), Uninstall(dry_run=True), yes)
    assert snapshot(agent) == before
    real = uninstall(context(set_root, agent), Uninstall(), yes)
    assert dry.plan.actions == real.plan.actions
    links = [a for a in real.plan.changes if a.action == "unlink" and ".extset" not in a.path]
    assert len(links) == len(DESTS) + 1  # and ext's /ext


def test_the_plan_is_refused_before_any_write_when_confirm_declines(
    set_root: Path, agent: Path
) -> None:
    from installer.ground.errors import Refused

    def no(plan: Plan, diffs: tuple[str, ...]) -> None:
        raise Refused("declined; nothing was written")

    build_tree(agent, {"extensions/notify.ts": "mine\n"})
    before = snapshot(agent)
    with pytest.raises(Refused):
        install(context(set_root, agent), Install(), no)
    assert snapshot(agent) == before


# ext list


def test_list_shows_each_state(tmp_path: Path, set_root: Path, agent: Path) -> None:
    build_tree(
        agent,
        {
            "extensions/notify.ts": set_root / "extensions/notify.ts",
            "extensions/.off/gamma": set_root / "extensions/gamma",
            "extensions/timer.js": set_root / "extensions/notify.ts",
            "skills/review": tmp_path / "theirs",
            "prompts/fix.md": "mine\n",
        },
    )
    _mode, found = items(context(set_root, agent))
    assert {(i.resource.label, i.state, i.path) for i in found} == {
        ("notify", "enabled", "extensions/notify.ts"),
        ("gamma", "disabled", "extensions/.off/gamma"),
        ("timer", "stale", "extensions/timer.js"),
        ("skill:review", "foreign", "skills/review"),
        ("prompt:fix", "conflict", "prompts/fix.md"),
        ("theme:dark", "not-installed", "themes/dark.json"),
    }


# two runs at once


def test_a_run_that_finds_the_job_done_by_another_while_asking_exits_0(
    set_root: Path, agent: Path
) -> None:
    def meanwhile(plan: Plan, diffs: tuple[str, ...]) -> None:
        # Another `ext install --yes` finishes while this one's plan is on screen.
        run(set_root, agent)

    build_tree(agent, {"extensions/notify.ts": "mine\n"})
    result = install(context(set_root, agent), Install(), meanwhile)
    assert (result.applied, result.changed) == (False, False)
    assert result.plan.is_empty
    assert (agent / f"extensions/notify.ts.bak.{STAMP}").read_text() == "mine\n"
    assert not (agent / f"extensions/notify.ts.bak.{STAMP}-1").exists()


def test_a_run_whose_plan_changed_while_asking_writes_nothing(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    from installer.ground.errors import ExtError

    def meanwhile(plan: Plan, diffs: tuple[str, ...]) -> None:
        build_tree(agent, {"themes/dark.json": "appeared meanwhile\n"})

    with pytest.raises(ExtError) as err:
        install(context(set_root, agent), Install(), meanwhile)
    assert "changed while the plan was on screen" in err.value.message
    assert set_links(agent) == {}


def test_list_and_dry_runs_write_nothing_not_even_bookkeeping(
    tmp_path: Path, set_root: Path
) -> None:
    agent = tmp_path / "fresh-agent"
    agent.mkdir()
    items(context(set_root, agent))
    run(set_root, agent, dry_run=True)
    uninstall(context(set_root, agent), Uninstall(dry_run=True), yes)
    assert os.listdir(agent) == []
