"""The switch planner: literal states in, actions out, in both modes; no disk."""

from __future__ import annotations

import pytest

from installer.commands.toggle import Choice, choices
from installer.ground.manifest import Guard, Manifest
from installer.links.switch import Item, View, plan_switch
from installer.sets.resources import Resource
from installer.settings.plan import Flip
from installer.settings.switches import PiSwitch

ROOT = "/set"
ALPHA = Resource("extension", "alpha", "alpha.ts", "file", "/set/extensions/alpha.ts")
GAMMA = Resource("extension", "gamma", "gamma", "dir", "/set/extensions/gamma")
SKILL = Resource("skill", "review", "review", "dir", "/set/skills/review")
PROMPT = Resource("prompt", "fix", "fix.md", "file", "/set/prompts/fix.md")
THEME = Resource("theme", "dusk", "dusk.json", "file", "/set/themes/dusk.json")


def link_view(*items: Item, taken: tuple[str, ...] = ()) -> View:
    paths = {i.path for i in items if i.state in ("enabled", "disabled")}
    return View("link", {i.resource: i for i in items}, frozenset(paths | set(taken)))


def on(r: Resource) -> Item:
    return Item(r, "enabled", r.dest)


def off(r: Resource) -> Item:
    return Item(r, "disabled", r.disabled_dest)


@pytest.mark.parametrize(
    ("r", "enabled", "disabled"),
    [
        (ALPHA, "extensions/alpha.ts", "extensions/alpha.ts.off"),
        (GAMMA, "extensions/gamma", "extensions/.off/gamma"),
        (SKILL, "skills/review", "skills/.off/review"),
        (PROMPT, "prompts/fix.md", "prompts/fix.md.off"),
        (THEME, "themes/dusk.json", "themes/dusk.json.off"),
    ],
)
def test_link_mode_renames_our_link_both_ways(r: Resource, enabled: str, disabled: str) -> None:
    down = plan_switch(link_view(on(r)), {r: False}, ROOT)
    assert [(a.action, a.path, a.target) for a in down.actions] == [("disable", enabled, disabled)]
    assert down.turned_off == (r,)
    assert not down.warnings
    up = plan_switch(link_view(off(r)), {r: True}, ROOT)
    assert [(a.action, a.path, a.target) for a in up.actions] == [("enable", disabled, enabled)]
    assert up.turned_on == (r,)


def test_already_in_the_wanted_state_is_a_no_op_that_says_so() -> None:
    sw = plan_switch(link_view(off(ALPHA), on(GAMMA)), {ALPHA: False, GAMMA: True}, ROOT)
    assert [a.action for a in sw.actions] == ["keep", "keep"]
    assert sw.notes == (
        "alpha is already disabled",
        "gamma is already enabled",
    )
    assert not sw.turned_on and not sw.turned_off and not sw.warnings


@pytest.mark.parametrize(
    ("state", "note", "says"),
    [
        ("foreign", "a link to /elsewhere", "the entry of that name is not ours"),
        ("conflict", "a file is in the way", "the entry of that name is not ours"),
        ("not-installed", None, "it is not installed"),
        ("stale", "its target is gone", "its link is stale"),
    ],
)
def test_what_is_not_ours_is_reported_and_left_alone(
    state: str, note: str | None, says: str
) -> None:
    sw = plan_switch(link_view(Item(ALPHA, state, ALPHA.dest, note)), {ALPHA: False}, ROOT)
    assert [a.action for a in sw.actions] == ["skip"]
    assert says in sw.warnings[0] and "alpha was not disabled" in sw.warnings[0]
    assert not sw.turned_off


def test_a_foreign_entry_at_the_other_name_blocks_the_rename() -> None:
    sw = plan_switch(link_view(on(ALPHA), taken=("extensions/alpha.ts.off",)), {ALPHA: False}, ROOT)
    assert [a.action for a in sw.actions] == ["skip"]
    assert "extensions/alpha.ts.off is in the way" in sw.warnings[0]
    sw = plan_switch(link_view(off(GAMMA), taken=("extensions/gamma",)), {GAMMA: True}, ROOT)
    assert [a.action for a in sw.actions] == ["skip"]
    assert "gamma was not enabled" in sw.warnings[0]


def reg_view(*items: Item) -> View:
    return View("register", {i.resource: i for i in items}, frozenset())


def reg(r: Resource, state: str) -> Item:
    return Item(r, state, "settings.json")


def test_register_mode_switches_every_kind_as_pi_config_does() -> None:
    view = reg_view(reg(ALPHA, "disabled"), reg(GAMMA, "enabled"), reg(SKILL, "enabled"))
    sw = plan_switch(view, {ALPHA: True, GAMMA: False, SKILL: False}, ROOT)
    assert [(a.action, a.path, a.target) for a in sw.actions] == [
        ("filter", "settings.json", ROOT)
    ] * 3
    assert sw.actions[0].detail == (
        "enable alpha: drops -extensions/alpha.ts from its packages entry, as pi config would"
    )
    assert sw.flips == (
        Flip(True, "extensions", "extensions/alpha.ts", True),
        Flip(True, "extensions", "extensions/gamma/index.ts", False),
        Flip(True, "skills", "skills/review/SKILL.md", False),
    )
    assert sw.turned_on == (ALPHA,) and sw.turned_off == (GAMMA, SKILL)


@pytest.mark.parametrize("pattern", ["!extensions/*.ts", "only extensions/gamma/index.ts", "[]"])
def test_register_mode_enable_past_a_pattern_that_is_no_minus_path_says_it_adds(
    pattern: str,
) -> None:
    """helper-51: with the entry's `"extensions": ["extensions/gamma/index.ts"]` (include
    only), the line said "drops -extensions/alpha.ts" while the diff below it added
    `+extensions/alpha.ts`, as pi config does past any pattern that is no `-path`."""
    by_pi = PiSwitch(False, pattern, 'settings.json packages entry /set "extensions"', "user", True)
    sw = plan_switch(
        reg_view(Item(ALPHA, "disabled", "settings.json", None, by_pi)), {ALPHA: True}, ROOT
    )
    assert sw.actions[0].detail == (
        f"enable alpha: adds +extensions/alpha.ts to its packages entry, over {pattern}, "
        "as pi config would"
    )
    assert sw.flips == (Flip(True, "extensions", "extensions/alpha.ts", True),)


def test_a_folder_extension_of_several_files_is_said_with_each_files_sign() -> None:
    """helper-56: `", -".join(paths)` after a `+` said "adds +extensions/two/a.ts,
    -extensions/two/b.ts" of an enable past a `!glob`, the plan line naming one file off."""
    two = Resource(
        "extension", "two", "two", "dir", "/set/extensions/two",
        declared=("extensions/two/a.ts", "extensions/two/b.ts"),
    )  # fmt: skip
    by_pi = PiSwitch(False, "!extensions/**", 'settings.json packages entry /set "extensions"')
    up = plan_switch(
        reg_view(Item(two, "disabled", "settings.json", None, by_pi)), {two: True}, ROOT
    )
    down = plan_switch(reg_view(reg(two, "enabled")), {two: False}, ROOT)

    assert up.actions[0].detail == (
        "enable two: adds +extensions/two/a.ts, +extensions/two/b.ts to its packages entry, "
        "over !extensions/**, as pi config would"
    )
    assert down.actions[0].detail == (
        "disable two: adds -extensions/two/a.ts, -extensions/two/b.ts to its packages entry, "
        "as pi config does"
    )


def test_register_mode_no_ops_and_what_it_cannot_switch() -> None:
    sw = plan_switch(reg_view(reg(ALPHA, "disabled")), {ALPHA: False}, ROOT)
    assert [a.action for a in sw.actions] == ["keep"]
    assert sw.notes == ("alpha is already disabled",)
    assert sw.flips == ()
    unregistered = plan_switch(reg_view(reg(ALPHA, "not-installed")), {ALPHA: False}, ROOT)
    assert [a.action for a in unregistered.actions] == ["skip"]
    assert "not installed" in unregistered.warnings[0]


def test_link_mode_enable_clears_pi_configs_switch_on_a_link_in_place() -> None:
    by_pi = PiSwitch(False, "-extensions/alpha.ts", 'settings.json "extensions"')
    sw = plan_switch(
        link_view(Item(ALPHA, "disabled", ALPHA.dest, None, by_pi)), {ALPHA: True}, ROOT
    )
    assert [(a.action, a.path) for a in sw.actions] == [("filter", "settings.json")]
    assert sw.flips == (Flip(False, "extensions", "extensions/alpha.ts", True),)
    parked = Item(ALPHA, "disabled", ALPHA.disabled_dest, None, by_pi)
    both = plan_switch(link_view(parked), {ALPHA: True}, ROOT)
    assert [a.action for a in both.actions] == ["enable", "filter"]


def test_link_mode_an_item_a_package_entry_loads_cannot_be_switched_by_ext() -> None:
    pkg = PiSwitch(True, "", "settings.json packages entry /set", package=True)
    item = Item(ALPHA, "enabled", ALPHA.disabled_dest, None, pkg, from_package=True)
    sw = plan_switch(link_view(item), {ALPHA: False}, ROOT)
    assert [a.action for a in sw.actions] == ["skip"]
    assert "packages entry" in sw.warnings[0]


def test_choices_show_state_checked_and_guarded_mark() -> None:
    manifest = Manifest(
        path=None,
        name="s",
        guards={"alpha": Guard("alpha", process="--alpha")},
        requires={"gamma": ("beta",)},
    )
    beta = Resource("extension", "beta", "beta.ts", "file", "/set/extensions/beta.ts")
    view = link_view(
        on(ALPHA), off(beta), on(GAMMA), Item(SKILL, "not-installed", SKILL.dest, "not linked")
    )
    got = {c.label: c for c in choices(manifest, view)}
    assert got["alpha"] == Choice(
        "alpha", "alpha         enabled  [guarded]", True, None, "enabled", "[guarded]"
    )
    assert got["beta"].checked is False and got["beta"].title.endswith("disabled  [guarded]")
    assert "[guarded]" not in got["gamma"].title
    assert got["skill:review"].disabled == "not linked"


def test_link_mode_disable_keeps_the_link_when_a_packages_entry_would_load_it_parked() -> None:
    # pi prefers the link to the package's copy: off by pi's -path it stays off; parked, the
    # package would load it.
    view = View("link", {ALPHA: on(ALPHA)}, frozenset({ALPHA.dest}), frozenset({ALPHA}))
    sw = plan_switch(view, {ALPHA: False}, ROOT)
    assert [(a.action, a.path) for a in sw.actions] == [("filter", "settings.json")]
    assert sw.flips == (Flip(False, "extensions", "extensions/alpha.ts", False),)
    assert sw.turned_off == (ALPHA,)
    assert "packages entry would load it" in sw.notes[0]
    plain = plan_switch(link_view(on(ALPHA)), {ALPHA: False}, ROOT)
    assert [a.action for a in plain.actions] == ["disable"]


def test_choices_show_pi_configs_switch() -> None:
    by_pi = PiSwitch(False, "-extensions/alpha.ts", 'settings.json "extensions"')
    view = link_view(Item(ALPHA, "disabled", ALPHA.dest, None, by_pi))
    [choice] = choices(Manifest(path=None, name="s"), view)
    assert choice.checked is False
    assert choice.mark == '[off in pi: -extensions/alpha.ts in settings.json "extensions"]'
    assert choice.title.endswith(f"disabled  {choice.mark}")


def test_an_item_left_out_is_a_box_to_tick_in_both_modes() -> None:
    """Not installed in a set installed here (an install's --only/--skip left it out): the
    checklist offers it unticked, as `ext enable` would put it in; one that is not left out
    (its place is taken) stays greyed out."""
    manifest = Manifest(path=None, name="s")
    left = Item(ALPHA, "not-installed", ALPHA.dest, None)
    taken = Item(GAMMA, "not-installed", GAMMA.dest, "in the way")
    linked = View("link", {ALPHA: left, GAMMA: taken}, frozenset({GAMMA.dest}), installed=True)
    got = {c.label: c for c in choices(manifest, linked)}
    assert (got["alpha"].checked, got["alpha"].disabled) == (False, None)
    assert got["gamma"].disabled == "in the way"
    registered = View("register", {ALPHA: left}, frozenset(), left_out=frozenset({ALPHA}))
    [choice] = choices(manifest, registered)
    assert (choice.checked, choice.disabled) == (False, None)


@pytest.mark.parametrize("style", ["rename", "pi"])
def test_link_mode_disable_of_an_item_left_out_puts_it_in_off(style: str) -> None:
    view = View(
        "link", {ALPHA: Item(ALPHA, "not-installed", ALPHA.dest)}, frozenset(), installed=True
    )
    sw = plan_switch(view, {ALPHA: False}, ROOT, style)
    shown = [(a.action, a.path) for a in sw.actions]
    if style == "pi":  # the -path before the link: pi never loads it on
        assert shown == [("filter", "settings.json"), ("link", "extensions/alpha.ts")]
        assert sw.flips == (Flip(False, "extensions", "extensions/alpha.ts", False),)
    else:
        assert shown == [("link", "extensions/alpha.ts.off")]
    assert sw.turned_off == (ALPHA,)


def test_pi_style_put_in_off_adds_no_path_pi_config_has_there() -> None:
    """A `-path` of pi config's names the place already: linked, the item is off; no filter
    line claims to add what is there."""
    by_pi = PiSwitch(False, "-extensions/alpha.ts", 'settings.json "extensions"')
    item = Item(ALPHA, "not-installed", ALPHA.dest, None, by_pi)
    view = View("link", {ALPHA: item}, frozenset(), installed=True)
    sw = plan_switch(view, {ALPHA: False}, ROOT, "pi")
    assert [(a.action, a.path) for a in sw.actions] == [("link", "extensions/alpha.ts")]
    assert sw.flips == ()


def test_a_file_ext_writes_for_a_host_is_never_put_in_as_a_link() -> None:
    """Gemini CLI's command is a TOML file ext writes: a link to the Markdown is not it."""
    written = ALPHA._replace(written="toml", folder="commands")
    view = View(
        "link", {written: Item(written, "not-installed", written.dest)}, frozenset(), installed=True
    )
    assert not view.puttable(written)
    sw = plan_switch(view, {written: False}, ROOT)
    assert [a.action for a in sw.actions] == ["skip"]
