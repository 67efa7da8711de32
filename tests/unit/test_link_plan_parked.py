"""The planner for items the user switched off in register mode: install links them parked."""

from __future__ import annotations

from datetime import datetime

from installer.engine.plan import Action, Plan
from installer.links.plan import plan_install
from installer.links.scan import Entry
from installer.sets.resources import Resource
from tests.helpers import agent_state, resource

SET = "/s"
NOW = datetime(2026, 11, 29, 10, 15, 0)
STAMP = "20261129-101500"


NOTIFY = resource("extension", "notify.ts")
GAMMA = resource("extension", "gamma", "dir")
FIX = resource("prompt", "fix.md")
ALL = (NOTIFY, GAMMA, FIX)


def install(entries: dict[str, Entry], parked: tuple[Resource, ...]) -> Plan:
    return plan_install(agent_state(entries), ALL, ALL, NOW, parked=parked)


def ours(r: Resource, exists: bool = True) -> Entry:
    return Entry("link", r.source, r.source, exists, to_dir=r.layout == "dir", owner="ours")


def test_a_parked_item_is_linked_in_its_disabled_form_and_the_others_enabled() -> None:
    plan = install({}, parked=(NOTIFY, GAMMA))
    assert list(plan.changes) == [
        Action(
            "link", NOTIFY.disabled_dest, target=NOTIFY.source, detail="disabled, as you left it"
        ),
        Action("link", GAMMA.disabled_dest, target=GAMMA.source, detail="disabled, as you left it"),
        Action("link", FIX.dest, target=FIX.source),
    ]


def test_a_parked_item_is_parked_beside_a_file_of_the_user_which_stays() -> None:
    # Its disabled form takes no place of the user's: nothing is backed up.
    plan = install({NOTIFY.dest: Entry("file")}, parked=(NOTIFY,))
    assert [(a.action, a.path) for a in plan.changes] == [
        ("link", NOTIFY.disabled_dest),
        ("link", GAMMA.dest),
        ("link", FIX.dest),
    ]


def test_a_parked_item_already_linked_disabled_is_kept() -> None:
    plan = install({NOTIFY.disabled_dest: ours(NOTIFY)}, parked=(NOTIFY,))
    assert plan.actions[0] == Action(
        "keep", NOTIFY.disabled_dest, target=NOTIFY.source, detail="disabled"
    )
    assert [a.path for a in plan.changes] == [GAMMA.dest, FIX.dest]


def test_a_parked_item_the_user_enabled_by_hand_in_link_mode_stays_enabled() -> None:
    # Our link at the enabled name: the user's latest word, kept as it is.
    plan = install({NOTIFY.dest: ours(NOTIFY)}, parked=(NOTIFY,))
    assert plan.actions[0] == Action("keep", NOTIFY.dest, target=NOTIFY.source)
    assert NOTIFY.disabled_dest not in [a.path for a in plan.actions]


def test_parking_is_by_kind_and_file_name_not_by_identity() -> None:
    # The registered set's item and the discovered one are equal values, built apart.
    plan = install({}, parked=(resource("extension", "notify.ts"),))
    assert plan.changes[0].path == NOTIFY.disabled_dest
    other_kind = install({}, parked=(resource("prompt", "notify.ts"),))
    assert other_kind.changes[0].path == NOTIFY.dest


def test_a_parked_item_whose_disabled_form_is_taken_backs_that_up_and_stays_off() -> None:
    # Linked at its enabled name instead, it would come back on: a switch lost.
    plan = install(
        {NOTIFY.disabled_dest: Entry("file"), GAMMA.disabled_dest: Entry("dir", to_dir=True)},
        parked=(NOTIFY, GAMMA),
    )
    assert [(a.action, a.path, a.backup or a.target) for a in plan.changes] == [
        ("backup", NOTIFY.disabled_dest, f"{NOTIFY.disabled_dest}.bak.{STAMP}"),
        ("link", NOTIFY.disabled_dest, NOTIFY.source),
        ("backup", GAMMA.disabled_dest, f"extensions/.off/.bak/gamma.bak.{STAMP}"),
        ("link", GAMMA.disabled_dest, GAMMA.source),
        ("link", FIX.dest, FIX.source),
    ]
    # what is backed up, said in the plan: the user's file or folder at that name
    assert [a.detail for a in plan.changes if a.action == "backup"] == ["a file", "a folder"]
