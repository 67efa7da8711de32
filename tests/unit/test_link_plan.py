"""The pure planner, one test per rule of DESIGN.md's link engine, over literal states (no disk)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest

from installer.engine.plan import Action, Plan
from installer.ground.backups import stamp
from installer.ground.errors import ExitCode, UsageError
from installer.links.plan import plan_install, plan_uninstall
from installer.links.scan import Entry
from installer.sets.resources import Resource, select
from tests.helpers import agent_state, resource

SET = Path("/s")
OLD = Path("/old-s")
NOW = datetime(2026, 11, 29, 10, 15, 0)
STAMP = "20261129-101500"


NOTIFY = resource("extension", "notify.ts")
TIMER = resource("extension", "timer.js")
GAMMA = resource("extension", "gamma", "dir")
REVIEW = resource("skill", "review", "dir")
FIX = resource("prompt", "fix.md")
DARK = resource("theme", "dark.json")
ALL = (NOTIFY, TIMER, GAMMA, REVIEW, FIX, DARK)

FILE = Entry("file")
DIR = Entry("dir", to_dir=True)


def ours(r: Resource, exists: bool = True) -> Entry:
    """Our link to r, right where it should point."""
    return link(r.source, owner="ours", exists=exists, to_dir=exists and r.layout == "dir")


def link(target: str, owner: str = "foreign", exists: bool = True, to_dir: bool = False) -> Entry:
    root = {"ours": str(SET), "moved": str(OLD)}.get(owner)
    return Entry("link", target, target, exists, to_dir=to_dir, owner=owner, root=root)


def install(
    entries: dict[str, Entry],
    selected: tuple[Resource, ...] = ALL,
    extra: tuple[str, ...] = (),
    now: datetime = NOW,
) -> Plan:
    return plan_install(agent_state(entries, extra), ALL, selected, now)


def changes(plan: Plan) -> list[tuple[str, str, str | None]]:
    """Each write as (action, path, backup or target)."""
    return [(a.action, a.path, a.backup or a.target) for a in plan.changes]


# fresh install and idempotence


def test_fresh_install_links_every_resource_to_its_destination() -> None:
    plan = install({})
    assert changes(plan) == [
        ("link", "extensions/notify.ts", "/s/extensions/notify.ts"),
        ("link", "extensions/timer.js", "/s/extensions/timer.js"),
        ("link", "extensions/gamma", "/s/extensions/gamma"),
        ("link", "skills/review", "/s/skills/review"),
        ("link", "prompts/fix.md", "/s/prompts/fix.md"),
        ("link", "themes/dark.json", "/s/themes/dark.json"),
    ]
    assert plan.summary() == "6 to link"


def test_second_run_plans_nothing_but_keeps() -> None:
    plan = install({r.dest: ours(r) for r in ALL})
    assert plan.is_empty
    assert [a.action for a in plan.actions] == ["keep"] * len(ALL)
    assert plan.summary() == "6 unchanged"


# things in the way


def test_real_file_in_the_way_is_backed_up_with_a_timestamp_then_linked() -> None:
    plan = install({NOTIFY.dest: FILE}, selected=(NOTIFY,))
    assert changes(plan) == [
        ("backup", "extensions/notify.ts", f"extensions/notify.ts.bak.{STAMP}"),
        ("link", "extensions/notify.ts", "/s/extensions/notify.ts"),
    ]
    assert re.fullmatch(r"extensions/notify\.ts\.bak\.\d{8}-\d{6}", plan.changes[0].backup or "")


def test_backup_stamp_is_local_wall_clock_seconds() -> None:
    assert stamp(datetime(2026, 1, 2, 3, 4, 5)) == "20260102-030405"


def test_foreign_symlink_is_backed_up_never_pruned() -> None:
    plan = install(
        {
            NOTIFY.dest: link("/elsewhere/notify.ts"),
            "extensions/mine.ts": link("/elsewhere/mine.ts", exists=False),
        },
        selected=(NOTIFY,),
    )
    assert changes(plan) == [
        ("backup", "extensions/notify.ts", f"extensions/notify.ts.bak.{STAMP}"),
        ("link", "extensions/notify.ts", "/s/extensions/notify.ts"),
    ]
    assert plan.changes[0].detail == "a link to /elsewhere/notify.ts"


def test_backup_name_taken_on_disk_gets_a_dash_n_suffix() -> None:
    taken = (f"extensions/notify.ts.bak.{STAMP}", f"extensions/notify.ts.bak.{STAMP}-1")
    plan = install({NOTIFY.dest: FILE}, selected=(NOTIFY,), extra=taken)
    assert plan.changes[0].backup == f"extensions/notify.ts.bak.{STAMP}-2"


def test_two_backups_in_the_same_second_get_distinct_names() -> None:
    # The first run backed up a file; the user put another in the way; a run in the same second.
    first = install({NOTIFY.dest: FILE}, selected=(NOTIFY,))
    again = install({NOTIFY.dest: FILE}, selected=(NOTIFY,), extra=(first.changes[0].backup or "",))
    assert first.changes[0].backup == f"extensions/notify.ts.bak.{STAMP}"
    assert again.changes[0].backup == f"extensions/notify.ts.bak.{STAMP}-1"


def test_backups_of_one_plan_never_share_a_name() -> None:
    plan = install({r.dest: (DIR if r.layout == "dir" else FILE) for r in ALL})
    backups = [a.backup for a in plan.changes if a.action == "backup"]
    assert len(backups) == len(ALL)
    assert len(set(backups)) == len(backups)


def test_real_folder_in_the_way_is_backed_up_into_the_dot_bak_folder() -> None:
    plan = install({GAMMA.dest: DIR, REVIEW.dest: DIR}, selected=(GAMMA, REVIEW))
    assert changes(plan) == [
        ("backup", "extensions/gamma", f"extensions/.bak/gamma.bak.{STAMP}"),
        ("link", "extensions/gamma", "/s/extensions/gamma"),
        ("backup", "skills/review", f"skills/.bak/review.bak.{STAMP}"),
        ("link", "skills/review", "/s/skills/review"),
    ]


def test_foreign_link_to_a_folder_is_backed_up_into_dot_bak_too() -> None:
    # A link to a folder beside the original would still be loaded by pi.
    plan = install({GAMMA.dest: link("/elsewhere/gamma", to_dir=True)}, selected=(GAMMA,))
    assert plan.changes[0].backup == f"extensions/.bak/gamma.bak.{STAMP}"


def test_folder_backup_name_taken_in_dot_bak_gets_a_suffix() -> None:
    plan = install(
        {GAMMA.dest: DIR}, selected=(GAMMA,), extra=(f"extensions/.bak/gamma.bak.{STAMP}",)
    )
    assert plan.changes[0].backup == f"extensions/.bak/gamma.bak.{STAMP}-1"


def test_replacing_is_always_backup_then_link() -> None:
    plan = install({NOTIFY.dest: FILE, GAMMA.dest: DIR}, selected=(NOTIFY, GAMMA))
    assert [a.action for a in plan.changes] == ["backup", "link", "backup", "link"]
    assert [a.path for a in plan.changes[:2]] == [NOTIFY.dest] * 2


# disabled forms


def test_our_dot_off_file_link_is_left_disabled() -> None:
    plan = install({"extensions/notify.ts.off": ours(NOTIFY)}, selected=(NOTIFY,))
    assert plan.is_empty
    assert plan.actions[0] == Action(
        "keep", "extensions/notify.ts.off", target=NOTIFY.source, detail="disabled"
    )


def test_folder_link_parked_in_dot_off_is_left_disabled() -> None:
    plan = install(
        {"extensions/.off/gamma": ours(GAMMA), "skills/.off/review": ours(REVIEW)},
        selected=(GAMMA, REVIEW),
    )
    assert plan.is_empty
    assert [(a.action, a.path) for a in plan.actions if a.action != "skip"] == [
        ("keep", "extensions/.off/gamma"),
        ("keep", "skills/.off/review"),
    ]


def test_disabled_with_a_real_file_at_the_enabled_name_stays_disabled_and_the_file_stays() -> None:
    plan = install({NOTIFY.dest: FILE, NOTIFY.disabled_dest: ours(NOTIFY)}, selected=(NOTIFY,))
    assert plan.is_empty


def test_our_disabled_link_with_a_wrong_target_is_relinked_in_place() -> None:
    plan = install(
        {NOTIFY.disabled_dest: link("/s/extensions/old.ts", owner="ours", exists=False)},
        selected=(NOTIFY,),
    )
    assert changes(plan) == [("relink", "extensions/notify.ts.off", "/s/extensions/notify.ts")]


# stale links


def test_stale_links_of_ours_are_pruned_in_every_form() -> None:
    gone = {
        "extensions/old.ts": link("/s/extensions/old.ts", "ours", exists=False),
        "extensions/old.ts.off": link("/s/extensions/old.ts", "ours", exists=False),
        "extensions/.off/oldfold": link("/s/extensions/oldfold", "ours", exists=False),
        "skills/gone": link("/s/skills/gone", "ours", exists=False),
        "prompts/gone.md.off": link("/s/prompts/gone.md", "ours", exists=False),
    }
    plan = install({**{r.dest: ours(r) for r in ALL}, **gone})
    assert sorted(changes(plan)) == sorted(("prune", p, e.target) for p, e in gone.items())


def test_a_dangling_moved_link_of_a_removed_resource_is_pruned() -> None:
    plan = install({"extensions/old.ts": link("/old-s/extensions/old.ts", "moved", exists=False)})
    assert ("prune", "extensions/old.ts", "/old-s/extensions/old.ts") in changes(plan)


def test_stale_foreign_links_and_real_files_are_never_pruned() -> None:
    plan = install(
        {
            **{r.dest: ours(r) for r in ALL},
            "extensions/theirs.ts": link("/elsewhere/gone.ts", exists=False),
            "extensions/theirs.ts.off": link("/elsewhere/gone.ts", exists=False),
            "extensions/mine.ts": FILE,
            "extensions/.off/mine": DIR,
        }
    )
    assert plan.is_empty


def test_our_link_that_still_resolves_is_not_pruned() -> None:
    # Ours and alive (a file of the set that is not a resource): not stale.
    plan = install({**{r.dest: ours(r) for r in ALL}, "extensions/README.md": ours(NOTIFY)})
    assert plan.is_empty


def test_the_strays_it_is_given_are_pruned_with_why() -> None:
    """Which links are strays is installer/links/strays.py's (journals, the disk): the planner
    prunes what it is given, saying why."""
    target = "/s/extensions/dropped.ts"
    entry = Entry("link", target, target, True, owner="ours", root=str(SET))
    state = agent_state({**{r.dest: ours(r) for r in ALL}, "extensions/dropped.ts": entry})
    plan = plan_install(state, ALL, ALL, NOW, strays=[("extensions/dropped.ts", entry)])
    assert [(a.action, a.path, a.detail) for a in plan.changes] == [
        ("prune", "extensions/dropped.ts", "no item of the set goes here now")
    ]


def test_a_dangling_duplicate_of_ours_beside_the_enabled_link_is_pruned() -> None:
    # Left by an older location of the set: once the record forgets that root it would read
    # as foreign and stay forever, so the run that still knows it is ours removes it.
    moved = link("/old-s/extensions/notify.ts", "moved", exists=False)
    plan = install({NOTIFY.dest: ours(NOTIFY), NOTIFY.disabled_dest: moved}, selected=(NOTIFY,))
    assert changes(plan) == [("prune", "extensions/notify.ts.off", "/old-s/extensions/notify.ts")]


# relinks


def test_ours_with_a_wrong_target_is_relinked() -> None:
    plan = install({NOTIFY.dest: link("/s/extensions/timer.js", "ours")}, selected=(NOTIFY,))
    assert changes(plan) == [("relink", "extensions/notify.ts", "/s/extensions/notify.ts")]
    assert plan.changes[0].detail == "was /s/extensions/timer.js"


def test_ours_dangling_at_the_destination_is_relinked_not_backed_up() -> None:
    plan = install(
        {GAMMA.dest: link("/s/extensions/gamma-old", "ours", exists=False)}, selected=(GAMMA,)
    )
    assert changes(plan) == [("relink", "extensions/gamma", "/s/extensions/gamma")]


def test_links_into_an_older_location_of_the_set_are_relinked() -> None:
    plan = install(
        {
            NOTIFY.dest: link("/old-s/extensions/notify.ts", "moved", exists=False),
            "extensions/.off/gamma": link("/old-s/extensions/gamma", "moved", exists=False),
        },
        selected=(NOTIFY, GAMMA),
    )
    assert changes(plan) == [
        ("relink", "extensions/notify.ts", "/s/extensions/notify.ts"),
        ("relink", "extensions/.off/gamma", "/s/extensions/gamma"),
    ]
    assert plan.changes[0].detail == "was an older location of the set"


# --only / --skip


def test_unselected_resources_are_skipped_and_left_alone() -> None:
    plan = install({TIMER.dest: FILE}, selected=(NOTIFY,))
    assert changes(plan) == [("link", "extensions/notify.ts", "/s/extensions/notify.ts")]
    skipped = [a.path for a in plan.actions if a.action == "skip"]
    assert skipped == [r.dest for r in ALL if r is not NOTIFY]


def test_an_installed_item_left_out_is_unlinked_saying_why() -> None:
    # The selection is what is installed: --skip on a host that has the item takes it out.
    plan = install({r.dest: ours(r) for r in ALL}, selected=(NOTIFY, TIMER, REVIEW, FIX, DARK))
    assert changes(plan) == [("unlink", "extensions/gamma", "/s/extensions/gamma")]
    assert plan.changes[0].detail == (
        "not selected: --only/--skip leave it out, so it is not installed"
    )
    assert plan.summary() == "1 to remove, 5 unchanged"


def test_a_link_of_ours_left_out_goes_whether_its_target_is_there_or_not() -> None:
    stale = link("/s/extensions/gone.ts", "ours", exists=False)
    moved = link("/old-s/extensions/gamma", "moved")
    plan = install({TIMER.dest: stale, GAMMA.dest: moved}, selected=(NOTIFY,))
    unlinked = [(a.path, a.target) for a in plan.changes if a.action == "unlink"]
    assert unlinked == [
        (TIMER.dest, "/s/extensions/gone.ts"),
        (GAMMA.dest, "/old-s/extensions/gamma"),
    ]


def test_an_item_left_out_that_is_off_stays_off_as_the_user_left_it() -> None:
    # Parked or off by pi's -path: the user's switch, which a later plain install keeps.
    entries = {NOTIFY.disabled_dest: ours(NOTIFY), GAMMA.dest: ours(GAMMA)}
    state = agent_state(entries, ())
    plan = plan_install(state, ALL, (TIMER,), NOW, off_now=(NOTIFY, GAMMA))
    assert [a.action for a in plan.changes] == ["link"]
    left = {a.path: a.detail for a in plan.actions if a.action == "skip"}
    assert left[NOTIFY.disabled_dest] == "not selected; off already, as you left it"
    assert left[GAMMA.dest] == "not selected; off already, as you left it"


def test_something_not_ours_at_a_left_out_place_is_left_alone() -> None:
    plan = install({GAMMA.dest: DIR, NOTIFY.dest: link("/elsewhere/n.ts")}, selected=(TIMER,))
    assert [a.action for a in plan.changes] == ["link"]


def test_only_installs_just_those() -> None:
    assert select(ALL, ["notify", "skill:review"], []) == (NOTIFY, REVIEW)


def test_only_accepts_a_file_name_too() -> None:
    assert select(ALL, ["timer.js"], []) == (TIMER,)


def test_skip_installs_all_but_those() -> None:
    assert select(ALL, [], ["gamma", "dark"]) == (NOTIFY, TIMER, REVIEW, FIX)


def test_only_wins_over_skip() -> None:
    assert select(ALL, ["gamma"], ["gamma", "notify"]) == (GAMMA,)


def test_no_selection_means_everything() -> None:
    assert select(ALL, [], []) == ALL


def test_an_unknown_name_is_a_usage_error_naming_the_closest_match() -> None:
    with pytest.raises(UsageError) as err:
        select(ALL, ["gama"], [])
    assert err.value.exit_code == ExitCode.USAGE
    assert "'gama'" in err.value.message
    assert err.value.fix == "did you mean 'gamma'?"


def test_an_unknown_name_in_skip_is_a_usage_error_too() -> None:
    with pytest.raises(UsageError) as err:
        select(ALL, [], ["notfy"])
    assert err.value.fix == "did you mean 'notify'?"


def test_a_name_of_the_wrong_kind_is_unknown() -> None:
    with pytest.raises(UsageError):
        select(ALL, ["theme:notify"], [])


@pytest.mark.parametrize("name", ["../notify", "a/b", "..", "skill:../review", "x\\y"])
def test_a_path_for_a_name_is_a_usage_error(name: str) -> None:
    with pytest.raises(UsageError) as err:
        select(ALL, [name], [])
    assert err.value.exit_code == ExitCode.USAGE
    assert err.value.fix


# uninstall


def test_uninstall_removes_ours_in_every_form_and_nothing_else() -> None:
    entries = {
        NOTIFY.dest: ours(NOTIFY),
        TIMER.disabled_dest: ours(TIMER),
        "extensions/.off/gamma": ours(GAMMA),
        REVIEW.dest: link("/old-s/skills/review", "moved", exists=False),
        "extensions/old.ts": link("/s/extensions/old.ts", "ours", exists=False),
        FIX.dest: link("/elsewhere/fix.md"),
        "extensions/gone.ts": link("/elsewhere/gone.ts", exists=False),
        DARK.dest: FILE,
        f"extensions/notify.ts.bak.{STAMP}": FILE,
        f"themes/dark.json.bak.{STAMP}": link("/elsewhere/dark.json"),
        "extensions/mine": DIR,
    }
    plan = plan_uninstall(agent_state(entries))
    assert plan.command == "uninstall"
    assert sorted(a.path for a in plan.changes) == sorted(
        [
            "extensions/notify.ts",
            "extensions/timer.js.off",
            "extensions/.off/gamma",
            "skills/review",
            "extensions/old.ts",
        ]
    )
    assert {a.action for a in plan.changes} == {"unlink"}


def test_uninstall_of_nothing_plans_nothing() -> None:
    assert plan_uninstall(agent_state({"extensions/mine.ts": FILE})).is_empty


# the plan as data


def test_same_steps_ignores_backup_timestamps_only() -> None:
    a = install({NOTIFY.dest: FILE}, selected=(NOTIFY,))
    b = install({NOTIFY.dest: FILE}, selected=(NOTIFY,), now=datetime(2027, 1, 1))
    c = install({TIMER.dest: FILE}, selected=(TIMER,))
    assert a.same_steps(b)
    assert not a.same_steps(c)


def test_action_json_has_only_the_keys_it_uses() -> None:
    plan = install({NOTIFY.dest: FILE}, selected=(NOTIFY,))
    assert [a.to_json() for a in plan.changes] == [
        {
            "action": "backup",
            "path": "extensions/notify.ts",
            "backup": f"extensions/notify.ts.bak.{STAMP}",
            "detail": "a file",
        },
        {"action": "link", "path": "extensions/notify.ts", "target": "/s/extensions/notify.ts"},
    ]


# a set reached through a symlinked path, and a disabled item with a dead link of ours beside it


def test_a_set_reached_through_a_symlink_is_kept_when_the_link_leads_to_the_same_file() -> None:
    # The set was named as /via-link/s (a symlink to /s): sources carry that path, `real` the
    # resolved one, and the links ext made resolve to the real file.
    source = "/via-link/s/extensions/notify.ts"
    notify = Resource("extension", "notify", "notify.ts", "file", source, NOTIFY.source)
    made = Entry("link", source, NOTIFY.source, True, owner="ours", root=str(SET))
    plan = plan_install(agent_state({notify.dest: made}), (notify,), (notify,), NOW)
    assert plan.is_empty
    assert [(a.action, a.path) for a in plan.actions] == [("keep", "extensions/notify.ts")]


def test_a_dead_link_of_ours_beside_the_disabled_form_is_pruned_and_the_item_stays_off() -> None:
    dead = link("/s/extensions/notify-old.ts", owner="ours", exists=False)
    plan = install({NOTIFY.dest: dead, NOTIFY.disabled_dest: ours(NOTIFY)}, selected=(NOTIFY,))
    assert ("keep", NOTIFY.disabled_dest) in [(a.action, a.path) for a in plan.actions]
    assert ("prune", NOTIFY.dest, dead.target) in changes(plan)
    assert not any(a.path == NOTIFY.dest and a.action in ("link", "relink") for a in plan.actions)
