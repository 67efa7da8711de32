"""`[set] switch = "pi"`: link mode switches as `pi config` does; literal states, no disk."""

from __future__ import annotations

import pytest

from installer.engine.plan import Action
from installer.links.switch import Item, View, plan_switch, plan_unpark
from installer.sets.resources import Resource
from installer.settings.plan import Flip
from installer.settings.switches import PiSwitch

ROOT = "/set"
ALPHA = Resource("extension", "alpha", "alpha.ts", "file", "/set/extensions/alpha.ts")
GAMMA = Resource("extension", "gamma", "gamma", "dir", "/set/extensions/gamma")
SKILL = Resource("skill", "review", "review", "dir", "/set/skills/review")
PROMPT = Resource("prompt", "fix", "fix.md", "file", "/set/prompts/fix.md")
THEME = Resource("theme", "dusk", "dusk.json", "file", "/set/themes/dusk.json")
KINDS = [
    (ALPHA, "extensions", "extensions/alpha.ts"),
    (GAMMA, "extensions", "extensions/gamma/index.ts"),
    (SKILL, "skills", "skills/review/SKILL.md"),
    (PROMPT, "prompts", "prompts/fix.md"),
    (THEME, "themes", "themes/dusk.json"),
]


def view(*items: Item, taken: tuple[str, ...] = ()) -> View:
    paths = {i.path for i in items if i.state in ("enabled", "disabled")}
    return View("link", {i.resource: i for i in items}, frozenset(paths | set(taken)))


def on(r: Resource) -> Item:
    return Item(r, "enabled", r.dest)


def parked(r: Resource, pi: PiSwitch | None = None) -> Item:
    return Item(r, "disabled", r.disabled_dest, None, pi)


def off_in_pi(r: Resource, key: str, path: str) -> Item:
    return Item(r, "disabled", r.dest, None, PiSwitch(False, f"-{path}", f'settings.json "{key}"'))


@pytest.mark.parametrize(("r", "key", "path"), KINDS)
def test_disable_keeps_the_link_and_writes_pi_configs_own_path(
    r: Resource, key: str, path: str
) -> None:
    sw = plan_switch(view(on(r)), {r: False}, ROOT, style="pi")
    assert [(a.action, a.path, a.target) for a in sw.actions] == [("filter", "settings.json", None)]
    assert sw.actions[0].detail == (
        f'disable {r.label}: adds -{path} to settings.json "{key}", as pi config does'
    )
    assert sw.flips == (Flip(False, key, path, False),)
    assert sw.turned_off == (r,) and not sw.warnings


@pytest.mark.parametrize(("r", "key", "path"), KINDS)
def test_rename_stays_the_default(r: Resource, key: str, path: str) -> None:
    sw = plan_switch(view(on(r)), {r: False}, ROOT)
    assert [(a.action, a.path, a.target) for a in sw.actions] == [
        ("disable", r.dest, r.disabled_dest)
    ]
    assert sw.flips == ()


@pytest.mark.parametrize(("r", "key", "path"), KINDS)
def test_enable_clears_the_path_or_brings_a_parked_link_back(
    r: Resource, key: str, path: str
) -> None:
    cleared = plan_switch(view(off_in_pi(r, key, path)), {r: True}, ROOT, style="pi")
    assert [(a.action, a.path) for a in cleared.actions] == [("filter", "settings.json")]
    assert cleared.flips == (Flip(False, key, path, True),)
    back = plan_switch(view(parked(r)), {r: True}, ROOT, style="pi")
    assert [(a.action, a.path, a.target) for a in back.actions] == [
        ("enable", r.disabled_dest, r.dest)
    ]
    assert back.flips == () and back.turned_on == (r,)


def test_what_is_off_either_way_is_a_no_op_in_both_styles() -> None:
    for item in (parked(ALPHA), off_in_pi(ALPHA, "extensions", "extensions/alpha.ts")):
        sw = plan_switch(view(item), {ALPHA: False}, ROOT, style="pi")
        assert [a.action for a in sw.actions] == ["keep"] and sw.flips == ()


def test_a_foreign_entry_at_the_off_name_does_not_matter_to_a_path() -> None:
    sw = plan_switch(
        view(on(ALPHA), taken=("extensions/alpha.ts.off",)), {ALPHA: False}, ROOT, style="pi"
    )
    assert [a.action for a in sw.actions] == ["filter"] and not sw.warnings


@pytest.mark.parametrize("state", ["foreign", "conflict", "not-installed", "stale"])
def test_what_is_not_ours_is_left_alone_in_the_pi_style_too(state: str) -> None:
    sw = plan_switch(view(Item(ALPHA, state, ALPHA.dest)), {ALPHA: False}, ROOT, style="pi")
    assert [a.action for a in sw.actions] == ["skip"] and sw.flips == ()
    assert "alpha was not disabled" in sw.warnings[0]


def test_an_item_a_package_entry_loads_is_not_switched_in_the_pi_style_either() -> None:
    pkg = PiSwitch(True, "", "settings.json packages entry /set", package=True)
    item = Item(ALPHA, "enabled", ALPHA.disabled_dest, None, pkg)
    sw = plan_switch(view(item), {ALPHA: False}, ROOT, style="pi")
    assert [a.action for a in sw.actions] == ["skip"] and sw.flips == ()


# --- install: parked links of ours come back in place, still off by pi's `-path` ----------


def keep_parked(r: Resource) -> Action:
    return Action("keep", r.disabled_dest, target=r.source, detail="disabled")


@pytest.mark.parametrize(("r", "key", "path"), KINDS)
def test_install_unparks_a_parked_link_into_place_with_pi_configs_path(
    r: Resource, key: str, path: str
) -> None:
    up = plan_unpark(view(parked(r)), (keep_parked(r),))
    assert [(a.action, a.path, a.target) for a in up.actions] == [
        ("unlink", r.disabled_dest, r.source),
        ("link", r.dest, r.source),
    ]
    assert up.actions[1].detail == f'stays off: -{path} in settings.json "{key}"'
    assert up.flips == (Flip(False, key, path, False),)
    assert not up.warnings


def test_unpark_writes_no_second_path_where_pi_has_one_already() -> None:
    had = PiSwitch(False, "-extensions/alpha.ts", 'settings.json "extensions"')
    up = plan_unpark(view(parked(ALPHA, had)), (keep_parked(ALPHA),))
    assert [a.action for a in up.actions] == ["unlink", "link"]
    assert up.flips == ()


def test_unpark_leaves_a_link_parked_while_its_place_is_taken() -> None:
    v = view(parked(ALPHA), taken=(ALPHA.dest,))
    up = plan_unpark(v, (keep_parked(ALPHA),))
    assert up.actions == (keep_parked(ALPHA),) and up.flips == ()
    assert "extensions/alpha.ts is in the way" in up.warnings[0]


def test_unpark_touches_nothing_else_and_a_second_run_plans_nothing() -> None:
    others = (
        Action("keep", ALPHA.dest, target=ALPHA.source),
        Action("link", GAMMA.dest, target=GAMMA.source),
        Action("skip", SKILL.dest, detail="not selected"),
    )
    v = view(on(ALPHA), off_in_pi(PROMPT, "prompts", "prompts/fix.md"))
    up = plan_unpark(v, others)
    assert up.actions == others and up.flips == () and not up.warnings
