"""What --only/--skip mean for an item already installed: the same in both modes.

The selection is what is installed: an item left out is taken out (link mode: its link of
ours goes; register mode: the entry's filter), a later install that does not leave it out
brings it back, and what the user switched off stays off through both.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.toggle import switch
from installer.commands.undo import Undo, undo
from installer.engine.result import PlanResult
from installer.ground.context import Context
from installer.links.states import items
from tests.fs.test_toggle_switch import SET, context
from tests.helpers import build_tree, yes

MODES = ["link", "register"]
EVERYTHING = {"alpha", "beta", "gamma", "skill:review", "prompt:fix", "theme:dark"}


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(SET))


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    folder = tmp_path / "agent"
    folder.mkdir()
    return folder


def run(ctx: Context, mode: str, dry_run: bool = False, **kw: tuple[str, ...]) -> PlanResult:
    options = Install(only=kw.get("only", ()), skip=kw.get("skip", ()), mode=mode)
    return install(ctx, options._replace(dry_run=dry_run), yes)


def loaded(ctx: Context) -> set[str]:
    """What pi loads from the set, as ext reads the agent dir (pi's switches included)."""
    return {i.resource.label for i in items(ctx)[1] if i.state == "enabled"}


@pytest.mark.parametrize("mode", MODES)
def test_skip_takes_an_installed_item_out_and_a_plain_install_brings_it_back(
    set_root: Path, agent: Path, mode: str
) -> None:
    ctx = context(set_root, agent)
    run(ctx, mode)
    assert loaded(ctx) == EVERYTHING

    skipped = run(ctx, mode, skip=("alpha",))
    assert skipped.applied
    assert loaded(ctx) == EVERYTHING - {"alpha"}

    again = run(ctx, mode, skip=("alpha",))  # the same selection: nothing to do
    assert not again.changed
    assert run(ctx, mode).applied  # a plain install: the selection is everything again
    assert loaded(ctx) == EVERYTHING


@pytest.mark.parametrize("mode", MODES)
def test_only_leaves_just_those_installed(set_root: Path, agent: Path, mode: str) -> None:
    ctx = context(set_root, agent)
    run(ctx, mode)
    run(ctx, mode, only=("beta", "skill:review"))
    assert loaded(ctx) == {"beta", "skill:review"}


@pytest.mark.parametrize("mode", MODES)
def test_the_plan_says_why_an_item_goes(set_root: Path, agent: Path, mode: str) -> None:
    ctx = context(set_root, agent)
    run(ctx, mode)
    plan = run(ctx, mode, dry_run=True, skip=("alpha",)).plan
    [change] = plan.changes
    if mode == "link":
        assert (change.action, change.path) == ("unlink", "extensions/alpha.ts")
        assert change.detail == "not selected: --only/--skip leave it out, so it is not installed"
    else:
        assert change.action == "filter"
        assert change.detail == (
            '"extensions": adds -extensions/alpha.ts '
            "(not selected: --only/--skip leave it out, so it is not installed)"
        )
    assert loaded(ctx) == EVERYTHING  # a dry run wrote nothing


@pytest.mark.parametrize("mode", MODES)
def test_what_the_user_disabled_stays_off_after_skip_and_a_plain_install(
    set_root: Path, agent: Path, mode: str
) -> None:
    ctx = context(set_root, agent)
    run(ctx, mode)
    assert switch(ctx, ["alpha"], False, False, False, yes).applied
    assert run(ctx, mode, skip=("alpha", "beta")).applied  # beta is taken out by the skip
    assert loaded(ctx) == EVERYTHING - {"alpha", "beta"}
    run(ctx, mode)  # beta comes back; alpha is the user's switch, which install never undoes
    assert loaded(ctx) == EVERYTHING - {"alpha"}
    assert switch(ctx, ["alpha"], True, False, False, yes).applied
    assert loaded(ctx) == EVERYTHING


@pytest.mark.parametrize("mode", MODES)
def test_undo_puts_back_what_a_skip_took_out(set_root: Path, agent: Path, mode: str) -> None:
    ctx = context(set_root, agent)
    run(ctx, mode)
    before = {p.name: p.read_bytes() for p in agent.glob("settings.json")}
    run(ctx, mode, skip=("alpha", "gamma"))
    assert undo(ctx, Undo(), yes).applied
    assert loaded(ctx) == EVERYTHING
    assert {p.name: p.read_bytes() for p in agent.glob("settings.json")} == before


def test_register_mode_records_as_its_own_only_the_filters_it_added(
    set_root: Path, agent: Path
) -> None:
    ctx = context(set_root, agent)
    run(ctx, "register")
    switch(ctx, ["alpha"], False, False, False, yes)
    run(ctx, "register", skip=("alpha", "beta"))
    record = json.loads((agent / ".extset" / "state.json").read_text())["sets"][0]
    assert record["extra"]["skipped"] == ["-extensions/beta.ts"]  # alpha's is the user's


@pytest.mark.parametrize(("first", "then"), [("link", "register"), ("register", "link")])
def test_a_users_switch_survives_a_skip_that_changes_mode(
    set_root: Path, agent: Path, first: str, then: str
) -> None:
    ctx = context(set_root, agent)
    run(ctx, first)
    switch(ctx, ["alpha"], False, False, False, yes)
    run(ctx, then, skip=("alpha", "beta"))
    assert loaded(ctx) == EVERYTHING - {"alpha", "beta"}
    run(ctx, then)
    assert loaded(ctx) == EVERYTHING - {"alpha"}


@pytest.mark.parametrize("mode", MODES)
def test_enable_puts_in_what_a_skip_left_out_until_the_next_skip(
    set_root: Path, agent: Path, mode: str
) -> None:
    ctx = context(set_root, agent)
    run(ctx, mode, skip=("alpha",))
    assert switch(ctx, ["alpha"], True, False, False, yes).applied
    assert loaded(ctx) == EVERYTHING
    run(ctx, mode, skip=("alpha",))  # the fleet's selection again: out
    assert loaded(ctx) == EVERYTHING - {"alpha"}


def test_enable_links_nothing_where_the_set_is_not_installed(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run(context(set_root, elsewhere), "link")
    result = switch(context(set_root, agent), ["alpha"], True, False, False, yes)
    assert not result.applied
    assert "alpha was not enabled: it is not installed" in result.plan.warnings[0]
    assert not (agent / "extensions").exists()
