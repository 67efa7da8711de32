"""The planner's words and edge states: what each action says, and whose link wins."""

from __future__ import annotations

from datetime import datetime

from installer.engine.plan import Action, Plan
from installer.links.plan import plan_install, plan_uninstall
from installer.links.scan import Entry
from installer.sets.resources import Resource
from tests.helpers import agent_state, resource

SET = "/s"
NOW = datetime(2026, 11, 29, 10, 15, 0)
STAMP = "20261129-101500"


NOTIFY = resource("extension", "notify.ts")
GAMMA = resource("extension", "gamma", "dir")
ALL = (NOTIFY, GAMMA)


def install(
    entries: dict[str, Entry],
    selected: tuple[Resource, ...] = ALL,
    resources: tuple[Resource, ...] = ALL,
) -> Plan:
    return plan_install(agent_state(entries), resources, selected, NOW)


def ours(target: str, exists: bool = True) -> Entry:
    return Entry("link", target, target, exists, owner="ours", root=SET)


def test_an_install_plan_is_named_install_and_says_why_an_item_is_skipped() -> None:
    plan = install({}, selected=(GAMMA,))
    assert plan.command == "install"
    assert plan.actions[0] == Action("skip", NOTIFY.dest, detail="not selected")


def test_a_prune_says_its_target_is_gone() -> None:
    gone = ours("/s/extensions/old.ts", exists=False)
    plan = install({NOTIFY.dest: ours(NOTIFY.source), "extensions/old.ts": gone})
    assert (
        Action(
            "prune", "extensions/old.ts", target="/s/extensions/old.ts", detail="its target is gone"
        )
        in plan.changes
    )


def test_a_prune_of_a_parked_link_says_the_item_was_switched_off() -> None:
    """A trial (helper-39): the set renamed an item the person had switched off; the new name
    came in switched on and nothing said the old one had been off."""
    gone = {
        "extensions/old.ts.off": ours("/s/extensions/old.ts", exists=False),
        "skills/.off/gone": ours("/s/skills/gone", exists=False),
    }
    plan = install({NOTIFY.dest: ours(NOTIFY.source), **gone})
    assert {a.path: a.detail for a in plan.changes if a.action == "prune"} == {
        "extensions/old.ts.off": "its target is gone; it was switched off",
        "skills/.off/gone": "its target is gone; it was switched off",
    }


def test_a_folder_in_the_way_is_backed_up_as_a_folder() -> None:
    plan = install({GAMMA.dest: Entry("dir", to_dir=True)}, selected=(GAMMA,))
    assert plan.changes[0] == Action(
        "backup",
        GAMMA.dest,
        backup=f"extensions/.bak/gamma.bak.{STAMP}",
        detail="a folder",
    )


def test_uninstall_names_the_target_of_each_link_it_removes() -> None:
    plan = plan_uninstall(
        agent_state(
            {NOTIFY.dest: ours(NOTIFY.source), "extensions/x.ts.off": ours("/s/x.ts", False)}
        )
    )
    assert plan.command == "uninstall"
    assert list(plan.changes) == [
        Action("unlink", NOTIFY.dest, target=NOTIFY.source),
        Action("unlink", "extensions/x.ts.off", target="/s/x.ts"),
    ]


def test_a_file_of_the_user_at_the_disabled_name_is_left_and_the_item_linked_enabled() -> None:
    plan = install({NOTIFY.disabled_dest: Entry("file")}, selected=(NOTIFY,))
    assert list(plan.changes) == [Action("link", NOTIFY.dest, target=NOTIFY.source, detail=BESIDE)]


def test_a_foreign_link_at_the_disabled_name_is_not_relinked() -> None:
    theirs = Entry("link", "/elsewhere/notify.ts", "/elsewhere/notify.ts", True, owner="foreign")
    plan = install({NOTIFY.disabled_dest: theirs}, selected=(NOTIFY,))
    assert list(plan.changes) == [Action("link", NOTIFY.dest, target=NOTIFY.source, detail=BESIDE)]


# The plan says it: pi loads the set's now, where the person had switched theirs off by hand.
BESIDE = "the set's, on; your extensions/notify.ts.off stays, off"


def test_our_live_link_at_the_enabled_name_wins_over_our_disabled_one() -> None:
    # Both forms are ours and the enabled one still leads somewhere: the item is enabled, so
    # the enabled link is pointed at the item rather than the disabled one kept.
    plan = install(
        {NOTIFY.dest: ours("/s/extensions/timer.ts"), NOTIFY.disabled_dest: ours(NOTIFY.source)},
        selected=(NOTIFY,),
    )
    assert list(plan.changes) == [
        Action("relink", NOTIFY.dest, target=NOTIFY.source, detail="was /s/extensions/timer.ts")
    ]


def test_two_backups_of_one_plan_for_one_place_get_distinct_names() -> None:
    # The planner promises a backup name no earlier action of the plan took, whatever it is given.
    again = resource("extension", "notify.ts", source="/s/other/notify.ts")
    plan = install({NOTIFY.dest: Entry("file")}, (NOTIFY, again), (NOTIFY, again))
    assert [a.backup for a in plan.changes if a.action == "backup"] == [
        f"extensions/notify.ts.bak.{STAMP}",
        f"extensions/notify.ts.bak.{STAMP}-1",
    ]
