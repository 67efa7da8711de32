"""`[set] switch = "pi"` on real folders: link mode switches with pi config's own `-path`.

The default (`"rename"`, `.off` links) is what tests/fs/test_toggle_switch.py proves; here the
same commands with the opt-in, and what install, a mode change and the guards do with it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from installer.agent.recorder import RECORDER
from installer.commands.install import Install, install
from installer.commands.toggle import Choice, checklist, switch, switch_both
from installer.commands.undo import Undo, undo
from installer.ground.context import Context, Env, resolve
from installer.ground.errors import ExitCode, ExtError, Refused
from installer.links.states import items
from tests.helpers import build_tree, set_links, snapshot, yes

PI_STYLE = '[set]\nname = "tools"\nswitch = "pi"\n'
SET = {
    "extset.toml": PI_STYLE,
    "extensions/alpha.ts": "export default function alpha() {}\n",
    "extensions/beta.ts": "export default function beta() {}\n",
    "extensions/gamma/index.ts": "export default function gamma() {}\n",
    "skills/review/SKILL.md": "# review\n",
    "prompts/fix.md": "fix it\n",
    "themes/dark.json": "{}\n",
}
PATHS = {
    "alpha": ("extensions", "extensions/alpha.ts"),
    "gamma": ("extensions", "extensions/gamma/index.ts"),
    "skill:review": ("skills", "skills/review/SKILL.md"),
    "fix": ("prompts", "prompts/fix.md"),
    "dark": ("themes", "themes/dark.json"),
}


def context(set_root: Path, agent: Path, tty: bool = True) -> Context:
    env = Env(environ=dict(os.environ), cwd=set_root.parent, stdin_tty=tty, stderr_tty=tty)
    return resolve(env, set_root, agent)


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(SET))


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    folder = tmp_path / "agent"
    folder.mkdir()
    return folder


def installed(set_root: Path, agent: Path, mode: str | None = None) -> Context:
    ctx = context(set_root, agent)
    install(ctx, Install(mode=mode), yes)
    return ctx


def styled(set_root: Path, style: str) -> None:
    (set_root / "extset.toml").write_text(f'[set]\nname = "tools"\nswitch = "{style}"\n')


def states(ctx: Context) -> dict[str, str]:
    return {i.resource.label: i.state for i in items(ctx)[1]}


def settings(agent: Path) -> dict[str, Any]:
    path = agent / "settings.json"
    return json.loads(path.read_text()) if path.exists() else {}


def pi_config(text: str, key: str, path: str, on: bool) -> str:
    """settings.json after `pi config` switches one resource of the agent dir (its top-level
    array; config-selector.js, pinned against the real pi in tests/e2e/test_pi_switches.py)."""
    data = json.loads(text) if text else {}
    kept = [p for p in data.get(key, []) if (p[1:] if p[:1] in "!+-" else p) != path]
    data[key] = [*kept, ("+" if on else "-") + path]
    return json.dumps(data, indent=2)


def test_disable_keeps_every_link_and_writes_what_pi_config_writes(
    set_root: Path, agent: Path
) -> None:
    ctx = installed(set_root, agent)
    links = set_links(agent)
    names = ("alpha", "gamma", "skill:review", "fix", "dark")
    result = switch(ctx, names, False, False, False, yes)
    assert result.applied
    assert [a.action for a in result.plan.changes] == ["filter"] * 5
    assert set_links(agent) == links  # nothing renamed: pi config finds every item
    mirror = ""
    for name in names:
        mirror = pi_config(mirror, *PATHS[name], on=False)
    assert settings(agent) == json.loads(mirror)
    said = {i.resource.label: i for i in items(ctx)[1]}
    assert {n: said[n].state for n in said} == {
        "alpha": "disabled",
        "beta": "enabled",
        "gamma": "disabled",
        "skill:review": "disabled",
        "prompt:fix": "disabled",
        "theme:dark": "disabled",
    }
    pi = said["alpha"].pi
    assert pi is not None and pi.pattern == "-extensions/alpha.ts"
    assert "now disabled: alpha, gamma, skill:review, prompt:fix, theme:dark" in result.notes

    back = switch(ctx, names, True, False, False, yes)
    assert [a.action for a in back.plan.changes] == ["filter"] * 5
    assert set(states(ctx).values()) == {"enabled"}
    assert settings(agent) == {}  # only ext's `-path`s were there: the keys go with them
    assert set_links(agent) == links


def test_a_disable_is_one_journal_entry_and_one_undo(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    (agent / "settings.json").write_text('{\n    "theme": "dark"\n}\n')
    links = set_links(agent)
    switch(ctx, ["alpha", "gamma"], False, False, False, yes)
    text = (agent / "settings.json").read_text()
    assert text.startswith('{\n    "theme": "dark",\n    "extensions": [')  # the user's indent
    steps = list((agent / ".extset" / "journal").glob("*-disable.jsonl"))
    assert len(steps) == 1
    assert undo(ctx, Undo(), yes).applied
    assert set_links(agent) == links
    assert (agent / "settings.json").read_text() == '{\n    "theme": "dark"\n}\n'


def test_enable_brings_back_a_link_parked_before_the_switch_changed(
    set_root: Path, agent: Path
) -> None:
    styled(set_root, "rename")
    ctx = installed(set_root, agent)
    switch(ctx, ["alpha", "gamma"], False, False, False, yes)
    assert "extensions/alpha.ts.off" in set_links(agent)
    styled(set_root, "pi")
    ctx = context(set_root, agent)
    result = switch(ctx, ["alpha"], True, False, False, yes)
    assert [(a.action, a.path) for a in result.plan.changes] == [
        ("enable", "extensions/alpha.ts.off")
    ]
    assert states(ctx)["alpha"] == "enabled" and "extensions" not in settings(agent)


def test_a_switch_back_on_written_by_pi_config_is_read_as_on(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    switch(ctx, ["alpha"], False, False, False, yes)
    path = agent / "settings.json"
    path.write_text(pi_config(path.read_text(), "extensions", "extensions/alpha.ts", on=True))
    assert settings(agent)["extensions"] == ["+extensions/alpha.ts"]
    assert states(ctx)["alpha"] == "enabled"
    again = switch(ctx, ["alpha"], False, False, False, yes)  # pi config's way: `+` goes, `-` in
    assert again.applied and settings(agent)["extensions"] == ["-extensions/alpha.ts"]


def test_dry_run_writes_nothing(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    tree = snapshot(agent)
    dry = switch(ctx, ["alpha"], False, False, True, yes)
    assert dry.changed and not dry.applied
    assert [(a.action, a.path) for a in dry.plan.changes] == [("filter", "settings.json")]
    assert snapshot(agent) == tree


def test_toggle_and_slash_ext_follow_the_same_switch(set_root: Path, agent: Path) -> None:
    ctx = installed(set_root, agent)
    links = set_links(agent)

    def pick(choices: list[Choice], check: Any) -> list[str]:
        return [c.label for c in choices if c.checked and c.label != "beta"]

    picked = checklist(ctx, pick, False, yes)
    assert [(a.action, a.path) for a in picked.plan.changes] == [("filter", "settings.json")]
    assert settings(agent)["extensions"] == ["-extensions/beta.ts"]
    headless = context(set_root, agent, tty=False)
    both = switch_both(headless, ["beta"], ["alpha"], False, yes)
    assert both.applied and settings(agent)["extensions"] == ["-extensions/alpha.ts"]
    assert (states(ctx)["alpha"], states(ctx)["beta"]) == ("disabled", "enabled")
    assert set_links(agent) == links


def test_an_unreadable_settings_json_fails_the_disable_and_writes_nothing(
    set_root: Path, agent: Path
) -> None:
    ctx = installed(set_root, agent)
    (agent / "settings.json").write_text('{"theme": ')
    tree = snapshot(agent)
    with pytest.raises(ExtError) as err:
        switch(ctx, ["alpha"], False, False, False, yes)
    assert err.value.exit_code == ExitCode.FAILED and "settings.json" in err.value.message
    assert snapshot(agent) == tree


# --- install ------------------------------------------------------------------------------


def test_install_turns_parked_links_into_links_in_place_still_off(
    set_root: Path, agent: Path
) -> None:
    styled(set_root, "rename")
    ctx = installed(set_root, agent)
    switch(ctx, ["alpha", "gamma", "skill:review"], False, False, False, yes)
    assert {"extensions/alpha.ts.off", "extensions/.off/gamma"} <= set(set_links(agent))
    styled(set_root, "pi")
    ctx = context(set_root, agent)
    result = install(ctx, Install(), yes)
    changes = [(a.action, a.path) for a in result.plan.changes]
    assert changes == [
        ("unlink", "extensions/alpha.ts.off"),
        ("link", "extensions/alpha.ts"),
        ("unlink", "extensions/.off/gamma"),
        ("link", "extensions/gamma"),
        ("unlink", "skills/.off/review"),
        ("link", "skills/review"),
        ("filter", "settings.json"),
        ("filter", "settings.json"),
    ]
    # The `-path`s go in before the links they keep off: never a moment with alpha on.
    from installer.engine.journal import records

    ops = [s["op"] for s in next(records(agent)).steps]
    assert ops.index("write") < ops.index("symlink")
    links = set_links(agent)
    assert not [p for p in links if ".off" in p]
    assert settings(agent) == {
        "extensions": ["-extensions/alpha.ts", "-extensions/gamma/index.ts"],
        "skills": ["-skills/review/SKILL.md"],
    }
    assert states(ctx) == {
        "alpha": "disabled",
        "beta": "enabled",
        "gamma": "disabled",
        "skill:review": "disabled",
        "prompt:fix": "enabled",
        "theme:dark": "enabled",
    }
    assert install(ctx, Install(), yes).plan.is_empty  # a second install plans nothing


@pytest.mark.parametrize("op", ["symlink", "unlink"])
def test_an_unpark_that_fails_part_way_leaves_links_and_settings_as_they_were(
    set_root: Path, agent: Path, monkeypatch: pytest.MonkeyPatch, op: str
) -> None:
    styled(set_root, "rename")
    ctx = installed(set_root, agent)
    switch(ctx, ["alpha", "gamma"], False, False, False, yes)
    (agent / "settings.json").write_text('{\n  "extensions": ["+extensions/beta.ts"]\n}\n')
    styled(set_root, "pi")
    ctx = context(set_root, agent)
    before = {k: v for k, v in snapshot(agent).items() if not k.startswith(".extset")}
    real = getattr(os, op)
    calls = []

    def flaky(*args: Any, **kw: Any) -> Any:
        calls.append(args)
        if len(calls) == 2:  # a link step, after settings.json got its `-path`s
            raise OSError(5, "Input/output error", str(args[0]))
        return real(*args, **kw)

    monkeypatch.setattr(os, op, flaky)
    with pytest.raises(ExtError) as err:
        install(ctx, Install(), yes)
    monkeypatch.setattr(os, op, real)
    assert err.value.exit_code == ExitCode.FAILED and "rolled back" in err.value.message
    assert {k: v for k, v in snapshot(agent).items() if not k.startswith(".extset")} == before


def test_install_leaves_links_parked_while_settings_json_cannot_be_read(
    set_root: Path, agent: Path
) -> None:
    styled(set_root, "rename")
    ctx = installed(set_root, agent)
    switch(ctx, ["alpha"], False, False, False, yes)
    (agent / "settings.json").write_text('{"theme": ')
    styled(set_root, "pi")
    ctx = context(set_root, agent)
    tree = snapshot(agent)
    result = install(ctx, Install(), yes)
    assert result.plan.is_empty and snapshot(agent) == tree
    assert any(w.startswith("parked links stay parked: ") for w in result.plan.warnings)
    assert states(ctx)["alpha"] == "disabled"


def test_install_with_the_default_leaves_parked_links_parked(set_root: Path, agent: Path) -> None:
    styled(set_root, "rename")
    ctx = installed(set_root, agent)
    switch(ctx, ["alpha"], False, False, False, yes)
    tree = snapshot(agent)
    assert install(ctx, Install(), yes).plan.is_empty
    assert snapshot(agent) == tree


def test_register_to_link_carries_the_entrys_paths_to_the_top_level(
    set_root: Path, agent: Path
) -> None:
    ctx = installed(set_root, agent, mode="register")
    switch(ctx, ["alpha", "skill:review"], False, False, False, yes)
    result = install(ctx, Install(mode="link"), yes)
    assert any("stay off as `-path`s" in w for w in result.plan.warnings), result.plan.warnings
    data = settings(agent)
    assert "packages" not in data or data["packages"] == []
    assert data["extensions"] == ["-extensions/alpha.ts"]
    assert data["skills"] == ["-skills/review/SKILL.md"]
    assert not [p for p in set_links(agent) if ".off" in p]
    assert states(ctx)["alpha"] == states(ctx)["skill:review"] == "disabled"
    assert states(ctx)["beta"] == "enabled"
    assert install(ctx, Install(), yes).plan.is_empty
    # and back: the top-level `-path`s become the entry's filters again
    install(ctx, Install(mode="register"), yes)
    assert states(ctx)["alpha"] == states(ctx)["skill:review"] == "disabled"


# --- guards -----------------------------------------------------------------------------

GUARDED = (
    PI_STYLE + '[guards.alpha]\nprocess = "--alpha-on"\n[guards.beta]\nrequired_by = ["gamma"]'
)


@pytest.mark.parametrize("style", ["rename", "pi"])
def test_the_guards_refuse_alike_in_both_styles(
    set_root: Path, agent: Path, tmp_path: Path, style: str
) -> None:
    (set_root / "extset.toml").write_text(GUARDED.replace('"pi"', f'"{style}"'))
    ctx = installed(set_root, agent)
    with pytest.raises(Refused) as err:
        switch(ctx, ["beta"], False, False, False, yes)
    assert "gamma is enabled and needs it" in err.value.message
    # pi config switched ext's session recorder off: the process guard cannot see sessions
    (agent / "settings.json").write_text(json.dumps({"extensions": [f"-{RECORDER}"]}))
    tree = snapshot(agent)
    with pytest.raises(Refused) as err:
        switch(ctx, ["alpha"], False, False, False, yes)
    assert err.value.exit_code == ExitCode.REFUSED
    assert "ext cannot see pi's sessions" in err.value.message
    assert snapshot(agent) == tree
    forced = switch(ctx, ["alpha"], False, True, False, yes)
    assert forced.applied and states(ctx)["alpha"] == "disabled"
