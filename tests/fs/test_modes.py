"""Switching modes and moving a registered set: pi never loads the set twice, choices survive."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.toggle import switch
from installer.ground.context import Context, Env, resolve
from installer.ground.errors import ExtError
from installer.links.states import items
from tests.helpers import build_tree, snapshot, yes

SET = {
    "extset.toml": '[set]\nname = "mine"\n',
    "extensions/one.ts": "// one",
    "extensions/two/index.ts": "// two",
}


def _ctx(tmp_path: Path, root: Path) -> Context:
    return resolve(Env(cwd=tmp_path), root, tmp_path / "agent", create=True)


def _packages(tmp_path: Path) -> list[object]:
    data = json.loads((tmp_path / "agent" / "settings.json").read_text())
    packages: list[object] = data.get("packages", [])
    return packages


def _states(ctx: Context) -> dict[str, str]:
    return {i.resource.name: i.state for i in items(ctx)[1]}


def test_register_then_link_removes_the_packages_entry(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", dict(SET))
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register"), yes)
    assert _packages(tmp_path) == [str(root)]
    result = install(ctx, Install(mode="link"), yes)
    assert "unregister" in {a.action for a in result.plan.actions}
    # ext made settings.json for the packages key: both go with the entry, as uninstall
    # takes them
    assert not (tmp_path / "agent" / "settings.json").exists()
    assert (tmp_path / "agent" / "extensions" / "one.ts").is_symlink()


def test_a_mode_the_manifest_changes_after_the_install_is_said_not_silently_kept(
    tmp_path: Path,
) -> None:
    """helper-89: installed in link mode, then `mode = "register"` in extset.toml: `ext install`
    said `nothing to do` and kept link mode (the mode recorded here comes first), unsaid."""
    root = build_tree(tmp_path / "set", {**SET, "extset.toml": '[set]\nname = "mine"\n'})
    install(_ctx(tmp_path, root), Install(), yes)
    (root / "extset.toml").write_text('[set]\nname = "mine"\nmode = "register"\n')
    result = install(_ctx(tmp_path, root), Install(), yes)
    assert result.plan.mode == "link" and not result.changed
    assert (
        "installed here in link mode, which a plain install keeps; extset.toml says register: "
        "`ext install --mode register` switches"
    ) in result.plan.warnings
    (root / "extset.toml").write_text('[set]\nname = "mine"\n')  # says no mode: nothing to say
    assert not [
        w for w in install(_ctx(tmp_path, root), Install(), yes).plan.warnings if "mode" in w
    ]
    switched = install(_ctx(tmp_path, root), Install(mode="register"), yes)
    assert switched.plan.mode == "register" and not [
        w for w in switched.plan.warnings if "mode" in w
    ]


def test_a_mode_chosen_with_the_option_is_kept_without_a_word(tmp_path: Path) -> None:
    """helper-90: `ext install --mode register` of a set whose extset.toml says link, then
    every plain install warned that the manifest says link, for a choice made on purpose.
    helper-91: the mark of that choice is made and dropped by the install that switches; a
    --mode that switches nothing neither marks (the manifest's later change is still said)
    nor rewrites the record."""
    toml = '[set]\nname = "mine"\nmode = "link"\n'
    root = build_tree(tmp_path / "set", {**SET, "extset.toml": toml})
    state = tmp_path / "agent" / ".extset" / "state.json"

    def mode_said(*given: str) -> list[str]:
        result = install(_ctx(tmp_path, root), Install(mode=given[0] if given else None), yes)
        return [w for w in result.plan.warnings if "extset.toml says" in w] + list(result.notes)

    assert mode_said("register") == []
    assert json.loads(state.read_text())["sets"][0]["extra"]["mode_chosen"] is True
    assert mode_said() == []  # kept as chosen, unsaid
    assert mode_said("link") == []  # switched back to the manifest's: no longer chosen
    assert "mode_chosen" not in json.loads(state.read_text())["sets"][0]["extra"]
    before = state.read_text()
    assert mode_said("link") == []  # no switch: nothing to mark, the record as it was
    assert state.read_text() == before
    (root / "extset.toml").write_text('[set]\nname = "mine"\nmode = "register"\n')
    assert mode_said() == [
        "installed here in link mode, which a plain install keeps; extset.toml says register: "
        "`ext install --mode register` switches"
    ]


def test_a_packages_key_of_the_user_s_stays_when_the_entry_goes(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", dict(SET))
    build_tree(tmp_path / "agent", {"settings.json": '{"packages": []}'})
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register"), yes)
    install(ctx, Install(mode="link"), yes)
    assert json.loads((tmp_path / "agent" / "settings.json").read_text()) == {"packages": []}


def test_uninstall_shows_only_what_it_writes_and_writes_what_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An empty packages key ext added, left by an older ext's register -> link: the uninstall
    of the last set removes it, and says so in an action (its diff alone was never written)."""
    from installer.commands import install as older
    from installer.commands.uninstall import Uninstall, uninstall
    from installer.engine.made import Made

    root = build_tree(tmp_path / "set", dict(SET))
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register"), yes)
    with monkeypatch.context() as m:  # an ext before this change left the key
        m.setattr(older, "_from_register", lambda ctx, state: Made(frozenset(), False))
        install(ctx, Install(mode="link"), yes)
    settings = tmp_path / "agent" / "settings.json"
    assert json.loads(settings.read_text()) == {"packages": []}

    shown = uninstall(ctx, Uninstall(dry_run=True), yes)
    done = uninstall(ctx, Uninstall(), yes)

    assert ("unregister", "settings.json") in {(a.action, a.path) for a in shown.plan.actions}
    assert shown.diffs and done.applied
    assert not settings.exists()  # ext made it, and nothing else is in it


def test_link_then_register_removes_the_links(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", dict(SET))
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="link"), yes)
    install(ctx, Install(mode="register"), yes)
    left = [p.name for p in (tmp_path / "agent" / "extensions").iterdir()]
    assert left == ["ext-command.ts"]  # ext's own /ext stays in both modes
    assert _packages(tmp_path) == [str(root)]


def test_list_in_register_mode_reads_the_packages_entry(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", dict(SET))
    ctx = _ctx(tmp_path, root)
    assert _states(ctx) == {"one": "not-installed", "two": "not-installed"}
    install(ctx, Install(mode="register"), yes)
    assert _states(ctx) == {"one": "enabled", "two": "enabled"}
    switch(ctx, ["two"], False, False, False, yes)
    assert _states(ctx) == {"one": "enabled", "two": "disabled"}


def test_a_moved_registered_set_keeps_its_mode_and_filters(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", dict(SET))
    install(_ctx(tmp_path, root), Install(mode="register"), yes)
    switch(_ctx(tmp_path, root), ["one"], False, False, False, yes)
    moved = tmp_path / "moved"
    shutil.move(root, moved)
    ctx = _ctx(tmp_path, moved)
    assert items(ctx)[0] == "register"
    install(ctx, Install(), yes)
    assert _packages(tmp_path) == [{"source": str(moved), "extensions": ["-extensions/one.ts"]}]
    assert _states(ctx) == {"one": "disabled", "two": "enabled"}


def test_what_was_switched_off_stays_off_across_mode_switches(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", dict(SET))
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register"), yes)
    switch(ctx, ["one"], False, False, False, yes)
    assert _states(ctx) == {"one": "disabled", "two": "enabled"}

    install(ctx, Install(mode="link"), yes)  # register -> link: one is linked as one.ts.off
    assert _states(ctx) == {"one": "disabled", "two": "enabled"}
    assert (tmp_path / "agent" / "extensions" / "one.ts.off").is_symlink()

    switch(ctx, ["one"], True, False, False, yes)  # back on in link mode
    switch(ctx, ["two"], False, False, False, yes)  # and two off
    install(ctx, Install(mode="register"), yes)  # link -> register: the .off link counts
    assert _packages(tmp_path) == [
        {"source": str(root), "extensions": ["-extensions/two/index.ts"]}
    ]
    assert _states(ctx) == {"one": "enabled", "two": "disabled"}


def test_a_folder_extension_with_index_js_is_filtered_by_its_real_entry(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {**SET, "extensions/jsf/index.js": "// jsf"})
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register"), yes)
    switch(ctx, ["jsf"], False, False, False, yes)
    assert _packages(tmp_path) == [
        {"source": str(root), "extensions": ["-extensions/jsf/index.js"]}
    ]
    assert _states(ctx)["jsf"] == "disabled"


def test_switching_to_register_carries_a_disabled_skill_over_as_a_filter(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {**SET, "skills/rev/SKILL.md": "# rev"})
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="link"), yes)
    switch(ctx, ["skill:rev"], False, False, False, yes)
    result = install(ctx, Install(mode="register"), yes)
    assert any("skill:rev stays off as filters" in w for w in result.plan.warnings)
    assert _packages(tmp_path) == [{"source": str(root), "skills": ["-skills/rev/SKILL.md"]}]
    assert _states(ctx)["rev"] == "disabled"


def test_an_install_cut_short_is_finished_in_its_own_mode(tmp_path: Path) -> None:
    from installer.engine import journal
    from installer.sets.modes import install_mode

    root = build_tree(tmp_path / "set", dict(SET))
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="link"), yes)
    log = journal.Journal(ctx.agent_dir, "install", ctx.env.now(), "0", "register")
    log.record({"op": "unlink", "path": "extensions/one.ts", "target": "x"})  # then killed
    assert install_mode(ctx, None) == "register"
    assert install_mode(ctx, "link") == "link"


def test_register_to_link_refuses_while_settings_json_cannot_be_read(tmp_path: Path) -> None:
    # The entry's switches cannot be read: linked, what it keeps off would come back on.
    root = build_tree(tmp_path / "set", dict(SET))
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register"), yes)
    switch(ctx, ["one"], False, False, False, yes)
    settings = tmp_path / "agent" / "settings.json"
    settings.write_text(settings.read_text().replace('"packages"', '"packages",'))
    tree = snapshot(tmp_path / "agent")
    with pytest.raises(ExtError) as err:
        install(ctx, Install(mode="link"), yes)
    assert "not valid JSON" in err.value.message
    assert "the switches of the set's packages entry" in err.value.message
    assert err.value.fix is not None and "line 2" in err.value.fix
    assert snapshot(tmp_path / "agent") == tree


def test_uninstall_in_register_mode_refuses_while_settings_json_cannot_be_read(
    tmp_path: Path,
) -> None:
    """A trial (helper-30): it said `done`, exit 0, and dropped the set from ext's record,
    while the entry that installed the set stayed: pi loaded the set once the file was
    mended, and ext took it for a set pi loads that ext did not link."""
    from installer.commands.uninstall import Uninstall, uninstall

    root = build_tree(tmp_path / "set", dict(SET))
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register"), yes)
    settings = tmp_path / "agent" / "settings.json"
    settings.write_text(settings.read_text().replace('"packages"', '"packages",'))
    tree = snapshot(tmp_path / "agent")
    with pytest.raises(ExtError) as err:
        uninstall(ctx, Uninstall(), yes)
    assert "not valid JSON" in err.value.message
    assert err.value.fix is not None and "line 2" in err.value.fix
    assert snapshot(tmp_path / "agent") == tree


def test_register_mode_says_it_takes_over_an_entry_of_the_user_s(tmp_path: Path) -> None:
    """A trial (helper-30): `pi install ../set` by hand, with a filter of its own; register
    mode adopted the entry with no line of the plan saying so, and uninstall removed it."""
    root = build_tree(tmp_path / "set", dict(SET))
    entry = {"source": "../set", "extensions": ["-extensions/one.ts"]}
    build_tree(tmp_path / "agent", {"settings.json": json.dumps({"packages": [entry]})})
    ctx = _ctx(tmp_path, root)

    first = install(ctx, Install(mode="register"), yes)
    again = install(ctx, Install(mode="register"), yes)

    assert (
        "settings.json already registers the set ('../set', not written by ext): ext keeps it "
        "as the set's entry from now on, and `ext uninstall` removes it"
    ) in first.plan.warnings
    assert not any("already registers" in w for w in again.plan.warnings)
    assert _packages(tmp_path) == [entry]


MOVED = {
    "extset.toml": '[set]\nname = "pkg"\n',
    "package.json": json.dumps({"name": "pkg", "pi": {"extensions": ["./src/**/*.ts"]}}),
    "src/lib/alpha.ts": "// alpha",
    "src/lib/gamma.ts": "// gamma",
}


def test_register_mode_says_when_a_switch_names_a_file_the_package_moved(
    tmp_path: Path,
) -> None:
    """A trial (helper-32): disabled in register mode (`-src/lib/gamma.ts`), then moved by the
    package's author to src/util/: the dead filter stayed and gamma came back on without a
    word, while link mode relinked its parked link and kept it off. Carried by a guess, the
    switch went to items the user never switched off (helper-33, helper-34): the install now
    says it, with the disable that keeps gamma off, and changes nothing."""
    root = build_tree(tmp_path / "set", dict(MOVED))
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register"), yes)
    switch(ctx, ["gamma"], False, False, False, yes)
    (root / "src/util").mkdir()
    (root / "src/lib/gamma.ts").rename(root / "src/util/gamma.ts")

    moved = install(ctx, Install(), yes)

    assert (
        "-src/lib/gamma.ts in the set's packages entry names no file of the set now; if it "
        "switched gamma off, which is at src/util/gamma.ts now and on, `ext disable gamma` "
        "keeps it off"
    ) in moved.plan.warnings
    assert moved.plan.is_empty
    assert _packages(tmp_path) == [{"source": str(root), "extensions": ["-src/lib/gamma.ts"]}]


def test_a_moved_folder_extension_s_switch_names_no_file_item_of_one_name(
    tmp_path: Path,
) -> None:
    """helper-33/34: `-src/box/main.ts` (box's entry) was taken for the item `main`: main went
    off. Nothing is switched by a guess now; the hint names the item sharing the most of the
    path (box's folder and its entry's name), never main."""
    files = {
        "extset.toml": '[set]\nname = "p"\n',
        "package.json": json.dumps(
            {"name": "p", "pi": {"extensions": ["./src/box", "./src/main.ts"]}}
        ),
        "src/main.ts": "// main",
        "src/box/main.ts": "// box",
        "src/box/package.json": json.dumps({"name": "box", "pi": {"extensions": ["./main.ts"]}}),
    }
    root = build_tree(tmp_path / "set", files)
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register"), yes)
    switch(ctx, ["box"], False, False, False, yes)
    (root / "src/tools").mkdir()
    (root / "src/box").rename(root / "src/tools/box")
    pi = {"extensions": ["./src/tools/box", "./src/main.ts"]}
    (root / "package.json").write_text(json.dumps({"name": "p", "pi": pi}))

    done = install(ctx, Install(), yes)

    assert _states(ctx) == {"box": "enabled", "main": "enabled"}
    [said] = [w for w in done.plan.warnings if "names no file" in w]
    assert "if it switched box off, which is at src/tools/box/main.ts now" in said


def test_a_skip_or_a_plus_path_is_no_switch_to_say_of_a_moved_file(tmp_path: Path) -> None:
    """helper-33: ext's own filter of a --skip was said as if the user had switched the item
    off (the selection is the run's), and so was a filter pi config's `+path` undoes."""
    root = build_tree(tmp_path / "set", dict(MOVED))
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register", skip=("gamma",)), yes)
    (root / "src/util").mkdir()
    (root / "src/lib/gamma.ts").rename(root / "src/util/gamma.ts")
    assert not any("names no file" in w for w in install(ctx, Install(), yes).plan.warnings)

    (root / "src/util/gamma.ts").rename(root / "src/lib/gamma.ts")
    install(ctx, Install(), yes)
    switch(ctx, ["gamma"], False, False, False, yes)  # -src/lib/gamma.ts
    (root / "src/lib/gamma.ts").rename(root / "src/util/gamma.ts")
    settings = tmp_path / "agent" / "settings.json"
    data = json.loads(settings.read_text())
    data["packages"][0]["extensions"].append("+src/util/gamma.ts")  # pi config: on by name
    settings.write_text(json.dumps(data))
    assert not any("names no file" in w for w in install(ctx, Install(), yes).plan.warnings)


def test_a_skip_in_register_mode_is_no_switch_to_carry_into_link_mode(tmp_path: Path) -> None:
    """--skip holds for its run in both modes: the filter ext wrote for it is not the user's
    switch, so register -> link links the item on; what the user switched off stays off."""
    root = build_tree(
        tmp_path / "set", {**SET, "extensions/three.ts": "// three", "extensions/four.ts": "// 4"}
    )
    ctx = _ctx(tmp_path, root)
    install(ctx, Install(mode="register"), yes)
    install(ctx, Install(mode="register", skip=("three",)), yes)
    switch(ctx, ["four"], False, False, False, yes)
    # Both off in pi: three left out (as link mode says), four switched off by the user.
    assert (_states(ctx)["three"], _states(ctx)["four"]) == ("not-installed", "disabled")

    install(ctx, Install(mode="link"), yes)

    assert _states(ctx)["three"] == "enabled"
    assert _states(ctx)["four"] == "disabled"
