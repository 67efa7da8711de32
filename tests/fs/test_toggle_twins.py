"""A bare name that is both an extension and a skill (`uv`) switches both: the plan says so on
each line, with the prefixed name that picks one alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.toggle import switch
from installer.ground.context import Env, resolve
from tests.helpers import build_tree, yes

SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/uv.ts": "export default function uv() {}\n",
    "skills/uv/SKILL.md": "---\nname: uv\ndescription: u\n---\n",
    "extensions/alpha.ts": "export default function alpha() {}\n",
}


@pytest.mark.parametrize("mode", ["link", "register"])
def test_a_name_of_two_kinds_shows_two_lines_with_the_hint(tmp_path: Path, mode: str) -> None:
    root = build_tree(tmp_path / "set", dict(SET))
    (tmp_path / "agent").mkdir()
    ctx = resolve(Env(cwd=tmp_path), root, tmp_path / "agent")
    install(ctx, Install(mode=mode), yes)
    plan = switch(ctx, ["uv"], False, False, True, yes).plan
    hinted = [a.detail or "" for a in plan.changes if "names this one alone" in (a.detail or "")]
    assert len(hinted) == 2, plan.changes
    assert any("uv is also a skill: `extension:uv` names this one alone" in d for d in hinted)
    assert any("uv is also a extension: `skill:uv`" in d for d in hinted) is False
    assert any("uv is also an extension: `skill:uv` names this one alone" in d for d in hinted)
    alone = switch(ctx, ["skill:uv"], False, False, True, yes).plan
    assert len(alone.changes) >= 1
    assert not any("alone" in (a.detail or "") for a in alone.changes)
    assert not any("extensions/uv" in a.path for a in alone.changes)


@pytest.mark.parametrize("mode", ["link", "register"])
@pytest.mark.parametrize("selection", [Install(skip=("uv",)), Install(only=("uv", "alpha"))])
def test_an_installs_selection_by_a_name_of_two_kinds_says_it_before_the_plan(
    tmp_path: Path, mode: str, selection: Install
) -> None:
    """helper-73: `ext install --skip uv` took out both (two plan lines) with no word that a
    prefixed name picks one, which disable says (issue 31, item 6)."""
    root = build_tree(tmp_path / "set", dict(SET))
    (tmp_path / "agent").mkdir()
    ctx = resolve(Env(cwd=tmp_path), root, tmp_path / "agent")
    install(ctx, Install(mode=mode), yes)
    plan = install(ctx, selection._replace(mode=mode, dry_run=True), yes).plan
    flag = "--skip" if selection.skip else "--only"
    assert (
        f"{flag} uv names an extension and a skill, both: `extension:uv` or `skill:uv` names one"
        in plan.warnings
    )
    alone = install(ctx, Install(mode=mode, dry_run=True, skip=("skill:uv",)), yes)
    assert not any("names one" in w for w in alone.plan.warnings)
