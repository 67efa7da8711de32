"""Each doctor check on real folders: a healthy install, then one thing broken at a time."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.doctor import Finding, Subject, resolve_subject, run_checks
from installer.ground.context import Env, resolve
from installer.host.pi import HostInfo
from tests.helpers import build_tree, yes

SET = {
    "extset.toml": (
        '[set]\nname = "tools"\n'
        '[host]\ntested = ">=0.70.0 <0.80.0"\n'
        "[settings.seed]\nquietStartup = true\n"
        '[settings.retired]\napiKeys = "moved to auth.json"\n'
        '[settings.renamed]\nqueueMode = "steeringMode"\n'
    ),
    "extensions/notify.ts": (
        'import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";\n'
        "export default function (pi: ExtensionAPI) {\n"
        '  pi.registerFlag("notify-min-secs", { type: "string" });\n'
        "}\n"
    ),
    "extensions/gamma/index.ts": (
        'export default function (pi) { pi.registerFlag("gamma", { type: "boolean" }); }\n'
    ),
    "skills/review/SKILL.md": "---\ndescription: reviews a change\n---\n# review\n",
    "prompts/fix.md": "fix it\n",
}


def fake_host(version: str = "0.73.1", scope: str = "@mariozechner") -> HostInfo:
    path = Path("/opt/pi/bin/pi")
    return HostInfo("pi", path, path, version, f"{scope}/pi-coding-agent", scope, "package.json")


def env(tmp_path: Path, **extra: str) -> Env:
    return Env(environ={**os.environ, **extra}, cwd=tmp_path)


def doctor(
    tmp_path: Path,
    set_root: Path | None,
    agent: Path | None,
    host: HostInfo | None = None,
    deep: bool = False,
    **environ: str,
) -> list[Finding]:
    found_host = host or fake_host()
    s = resolve_subject(env(tmp_path, **environ), set_root, agent, lambda _c, _p: found_host)
    return run_checks(s, deep=deep)


def only(found: list[Finding], check: str) -> list[Finding]:
    """A check's rows; the updates check names each row after its thing (`updates.ext`)."""
    return [
        f for f in found if f.id == check or (check == "updates" and f.id.startswith("updates."))
    ]


def level(found: list[Finding], check: str) -> str:
    """The worst level a check reported."""
    order = ["ok", "info", "warn", "error", "failed"]
    return max((f.level for f in only(found, check)), key=order.index)


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    root = build_tree(tmp_path / "set", dict(SET))
    for path in [root, *root.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return root


@pytest.fixture
def agent(tmp_path: Path, set_root: Path) -> Path:
    """The set installed (link mode) into a fresh agent dir."""
    path = tmp_path / "agent"
    path.mkdir(mode=0o755)
    install(resolve(env(tmp_path), set_root, path), Install(), yes)
    return path


def test_a_healthy_install_is_all_ok(tmp_path: Path, set_root: Path, agent: Path) -> None:
    found = doctor(tmp_path, set_root, agent, PI_CODING_AGENT_DIR=str(agent))

    assert not [f for f in found if f.level not in ("ok", "info")], found
    assert level(found, "items") == "ok"
    assert only(found, "items")[0].message == "4 enabled, 0 disabled"
    assert level(found, "host.env") == "ok"
    ids = [f.id for f in found]
    assert "host.load" not in ids  # only with --deep


@pytest.mark.parametrize("folder", [True, False], ids=["its folder there", "no folder"])
def test_a_settings_link_to_nothing_is_a_warning(
    tmp_path: Path, set_root: Path, agent: Path, folder: bool
) -> None:
    """helper-86: it read "no settings.json yet", then an install that seeds failed to write
    through it."""
    target = tmp_path / "dotfiles" / "pi.json"
    if folder:
        target.parent.mkdir()
    (agent / "settings.json").unlink()
    (agent / "settings.json").symlink_to(target)
    found = only(doctor(tmp_path, set_root, agent), "settings.json")
    assert [f.level for f in found] == ["warn"]
    there = "" if folder else ", in a folder that does not exist"
    fail = "" if folder else ", and its writes and ext's fail"
    assert found[0].message == (
        f"settings.json is a link to {target}{there}: pi reads no settings{fail}"
    )
    assert found[0].fix == f"point it at a file, or remove it: rm {agent / 'settings.json'}"


def test_an_agent_dir_inside_the_sets_folder_is_all_ok(tmp_path: Path, set_root: Path) -> None:
    """`ext install --agent-dir ./try` from the set's own folder (a trial): the links to ext's
    own agent files (/ext, the session recorder) lead into the set's folder, where the agent
    dir is, and were said to be links into the set that are no item, with `rm` as the fix."""
    agent = set_root / "try"
    agent.mkdir(mode=0o755)
    install(resolve(env(tmp_path), set_root, agent), Install(), yes)

    found = doctor(tmp_path, set_root, agent, PI_CODING_AGENT_DIR=str(agent))

    assert [(f.level, f.message) for f in only(found, "items")] == [("ok", "4 enabled, 0 disabled")]
    assert not [f for f in found if f.level not in ("ok", "info")], found


# ---- the set ----------------------------------------------------------------


def test_a_set_that_cannot_be_found_is_an_error_and_the_rest_still_runs(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()

    found = doctor(tmp_path, empty, None)

    [finding] = only(found, "set")
    assert finding.level == "error" and "is not a set" in finding.message
    assert level(found, "agent.dir") == "error"  # unknown: the set might have named it
    assert level(found, "host") == "ok"
    assert not [f for f in found if f.level == "failed"]


def test_an_invalid_manifest_is_an_error_yet_a_named_agent_dir_is_still_checked(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    (set_root / "extset.toml").write_text("[set\n")

    found = doctor(tmp_path, set_root, agent)

    assert level(found, "set.manifest") == "error"
    assert "invalid TOML" in only(found, "set.manifest")[0].message
    assert level(found, "items") == "ok"
    assert only(found, "host.drift")[0].message.startswith("not checked")


def test_unknown_manifest_keys_are_warnings(tmp_path: Path, set_root: Path, agent: Path) -> None:
    (set_root / "extset.toml").write_text('[set]\nname = "tools"\nmdoe = "link"\n')

    [finding] = only(doctor(tmp_path, set_root, agent), "set.manifest")

    assert finding.level == "warn"
    assert "unknown key [set] mdoe" in finding.message and "'mode'" in finding.message


def test_duplicate_names_and_dangling_set_links_are_errors(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    build_tree(set_root, {"extensions/notify/index.ts": "export default () => {}\n"})
    os.symlink(tmp_path / "gone.ts", set_root / "extensions" / "lost.ts")

    found = only(doctor(tmp_path, set_root, agent), "set.resources")

    messages = [f.message for f in found if f.level == "error"]
    assert any("two extensions are named 'notify'" in m for m in messages), found
    assert any(m.startswith("extensions/lost.ts in the set is a link to") for m in messages)


@pytest.mark.parametrize("folder", ["extensions", "skills", "prompts"])
def test_a_link_loop_in_the_set_is_said_as_one_not_a_failed_check(
    tmp_path: Path, set_root: Path, agent: Path, folder: str
) -> None:
    """A trial: two links to each other in extensions/ made the set.resources check fail
    with `OSError: Too many levels of symbolic links` ("report it as a bug"), and a prompt
    linked to itself was "a link to lp.md, which does not exist"."""
    where = set_root / folder
    where.mkdir(exist_ok=True)
    os.symlink("loop2.md", where / "loop1.md")
    os.symlink("loop1.md", where / "loop2.md")

    found = only(doctor(tmp_path, set_root, agent), "set.resources")

    loops = [f for f in found if "loop" in f.message]
    assert [f.level for f in found if f.level == "failed"] == []
    assert [f.message for f in loops] == [
        f"{folder}/loop1.md in the set is a link that leads back to itself (a loop): the item "
        "cannot be installed",
        f"{folder}/loop2.md in the set is a link that leads back to itself (a loop): the item "
        "cannot be installed",
    ]
    assert all(f.level == "error" and (f.fix or "").startswith("remove the link") for f in loops)


def test_two_skills_of_one_frontmatter_name_are_a_warning(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    """A trial: skills/a and skills/b both `name: same`; install, list and doctor said nothing,
    while pi loads one of the two (tests/e2e pin the collision on the real pi)."""
    build_tree(
        set_root,
        {
            "skills/a/SKILL.md": "---\nname: same\ndescription: one\n---\n",
            "skills/b/SKILL.md": "---\nname: 'same'\ndescription: two\n---\n",
        },
    )
    found = only(doctor(tmp_path, set_root, agent), "set.resources")
    assert [(f.level, f.message) for f in found] == [
        (
            "warn",
            "skills/a and skills/b both name their skill 'same' in their frontmatter: pi loads "
            "one of them, and warns of a collision",
        )
    ]


def test_a_guard_naming_no_extension_is_a_warning(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    with (set_root / "extset.toml").open("a") as f:
        f.write('[guards.notfy]\nreason = "x"\n')

    found = only(doctor(tmp_path, set_root, agent), "set.resources")

    assert [x.level for x in found] == ["warn"]
    assert found[0].message == "[guards.notfy] names no extension of the set"


def test_a_set_file_others_can_write_is_a_warning(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    (set_root / "extensions" / "notify.ts").chmod(0o666)

    [finding] = only(doctor(tmp_path, set_root, agent), "set.permissions")

    assert finding.level == "warn"
    assert str(set_root / "extensions" / "notify.ts") in finding.message
    assert "run with your full rights" in finding.message
    assert finding.fix == f"chmod -R go-w {set_root}"


def test_a_pi_package_s_declared_file_others_can_write_is_a_warning(
    tmp_path: Path, agent: Path
) -> None:
    set_root = build_tree(
        tmp_path / "pkg",
        {
            "package.json": '{"pi": {"extensions": ["./src/*.ts"], "skills": ["./sk"]}}',
            "src/tool.ts": "export default function () {}\n",
            "sk/col/one/SKILL.md": "---\nname: one\ndescription: d\n---\n",
        },
    )
    (set_root / "src" / "tool.ts").chmod(0o666)
    (set_root / "sk" / "col" / "one" / "SKILL.md").chmod(0o666)

    found = doctor(tmp_path, set_root, agent)
    [finding] = only(found, "set.permissions")

    assert finding.level == "warn"
    assert str(set_root / "src" / "tool.ts") in finding.message
    assert str(set_root / "sk" / "col" / "one" / "SKILL.md") in finding.message
    assert [f.message for f in only(found, "set.resources")] == [
        "2 resources (1 extension, 1 skill), names unique"
    ]


def test_a_kind_folder_a_pi_package_s_manifest_leaves_out_is_a_warning(
    tmp_path: Path, agent: Path
) -> None:
    """pi loads only what a package's manifest names: skills/ beside it would go silent."""
    set_root = build_tree(
        tmp_path / "pkg",
        {
            "package.json": '{"pi": {"extensions": ["./src"]}}',
            "src/tool.ts": "export default function () {}\n",
            "skills/one/SKILL.md": "---\nname: one\ndescription: d\n---\n",
        },
    )
    rows = [
        (f.level, f.message, f.fix)
        for f in only(doctor(tmp_path, set_root, agent), "set.resources")
    ]
    assert rows == [
        (
            "warn",
            "package.json's `pi` manifest names no skills: pi loads none of skills/ (a pi "
            "package loads only what its manifest names)",
            'add "skills": ["./skills"] to "pi" in package.json, or move skills/ out of the set',
        )
    ]


def test_a_pi_package_whose_manifest_names_nothing_says_so(tmp_path: Path, agent: Path) -> None:
    set_root = build_tree(tmp_path / "pkg", {"package.json": '{"pi": {}}'})
    [row] = only(doctor(tmp_path, set_root, agent), "set.resources")
    assert (row.level, row.message) == (
        "warn",
        f"the set has no resources: {set_root}/package.json's `pi` manifest names nothing pi loads",
    )


# ---- the agent dir ----------------------------------------------------------


def test_a_named_agent_dir_that_does_not_exist_is_an_error_with_the_fix(
    tmp_path: Path, set_root: Path
) -> None:
    found = doctor(tmp_path, set_root, tmp_path / "nope")

    [finding] = only(found, "agent.dir")
    assert finding.level == "error" and "does not exist" in finding.message
    assert finding.fix is not None and "--create" in finding.fix
    assert f"--set {set_root} " in finding.fix  # run from elsewhere, it installs this set
    assert only(found, "items")[0].message.startswith("not checked")


def test_the_isolated_agent_dir_not_made_yet_is_news_not_a_fault(
    tmp_path: Path, set_root: Path
) -> None:
    found = doctor(tmp_path, set_root, None)

    [finding] = only(found, "agent.dir")
    assert finding.level == "info" and "does not exist yet" in finding.message
    assert not [f for f in found if f.level in ("warn", "error", "failed")], found


@pytest.mark.parametrize("read_only", [True, False])
def test_an_agent_dir_you_cannot_write_gets_the_fix_for_why(
    tmp_path: Path, set_root: Path, agent: Path, monkeypatch: pytest.MonkeyPatch, read_only: bool
) -> None:
    """A read-only mount wants a remount (chmod cannot help there); else write access."""
    real_access, real_statvfs = os.access, os.statvfs

    class Stat:
        f_flag = os.ST_RDONLY if read_only else 0

    def access(path: object, mode: int, **kw: object) -> bool:
        return False if Path(str(path)) == agent else real_access(path, mode, **kw)

    def statvfs(path: object) -> object:
        return Stat() if Path(str(path)) == agent else real_statvfs(path)

    with monkeypatch.context() as patched:
        patched.setattr(os, "access", access)
        patched.setattr(os, "statvfs", statvfs)
        found = doctor(tmp_path, set_root, agent)
    [finding] = only(found, "agent.dir")
    assert finding.level == "error" and "is not writable by you" in finding.message
    if read_only:
        assert finding.fix is not None and finding.fix.startswith(
            f"{agent} is on a read-only file system: remount it read-write"
        )
    else:
        assert finding.fix == f"chmod u+rwx {agent}"


def test_an_agent_dir_others_can_write_is_a_warning(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    agent.chmod(0o777)

    [finding] = only(doctor(tmp_path, set_root, agent), "agent.permissions")

    assert finding.level == "warn" and str(agent) in finding.message


def test_an_extensions_folder_that_links_into_the_set_is_an_error(
    tmp_path: Path, set_root: Path
) -> None:
    agent = build_tree(tmp_path / "agent", {"extensions": set_root / "extensions"})

    found = doctor(tmp_path, set_root, agent)

    [finding] = only(found, "agent.folders")
    assert finding.level == "error" and "point at itself" in finding.message
    assert "rm " in (finding.fix or "")
    assert only(found, "items")[0].message.startswith("not checked")


# ---- items ------------------------------------------------------------------


def test_a_deleted_set_file_is_an_error_naming_the_item(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    (set_root / "extensions" / "notify.ts").unlink()

    found = only(doctor(tmp_path, set_root, agent), "items")

    [err] = [f for f in found if f.level == "error"]
    assert err.message.startswith("notify: extensions/notify.ts is a link of ext's")
    assert "gone from the set" in err.message
    assert err.fix is not None and err.fix.startswith("ext install")


def test_a_link_of_ours_where_no_item_goes_now_is_a_warning_only_where_pi_loads_it(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    """Session 49: an item dropped from the set while its file stays (a pi package's manifest
    edited) was info, `links into the set, which is not an item`, while pi loaded it. A link
    the user made into the set stays info (helper-31: it is theirs)."""
    pi = {"extensions": ["./extensions/gamma"], "skills": ["./skills"], "prompts": ["./prompts"]}
    (set_root / "package.json").write_text(json.dumps({"name": "tools", "pi": pi}))
    (agent / "extensions/README.md").symlink_to(set_root / "extensions/notify.ts")

    found = only(doctor(tmp_path, set_root, agent), "items")

    [warned] = [f for f in found if f.level == "warn"]
    assert warned.message == (
        f"notify: extensions/notify.ts links into the set, to {set_root}/extensions/notify.ts, "
        "which is no item of it now; pi loads it all the same"
    )
    assert warned.fix == "ext install (prunes it)"
    [noted] = [f for f in found if f.level == "info" and "README.md" in f.message]
    assert noted.message.endswith("which is not an item")


@pytest.mark.parametrize("command", ["install", "undo", "disable"])
def test_a_run_cut_short_is_a_warning_with_the_command_that_finishes_it(
    tmp_path: Path, set_root: Path, agent: Path, command: str
) -> None:
    """A trial (helper-29): after a killed run `ext history` said `interrupted`, while doctor
    exited 0 without a word: half of the run was on disk."""
    folder = agent / ".extset" / "journal"
    name = f"20261205T090000.000000-{2**22 + 1}-{command}.jsonl"  # a pid no process has
    head = {"journal": 1, "command": command, "started": "2026-12-05T09:00:00.000000"}
    (folder / name).write_text(json.dumps(head) + '\n{"op": "mkdir", "path": "x"}\n')

    [found] = only(doctor(tmp_path, set_root, agent), "agent.interrupted")

    assert (found.level, found.message) == (
        "warn",
        f"`ext {command}` of 2026-12-05T09:00:00 was interrupted part-way (1 step(s) "
        "journaled): what it did is half done",
    )
    assert (
        found.fix
        == {
            "undo": "`ext undo` finishes it",
            "install": "`ext install` finishes it, `ext undo` reverses it",
            # helper-31: `ext disable` alone is a usage error
            "disable": "`ext disable` again, as you typed it, finishes it; `ext undo` reverses it",
        }[command]
    )


def test_a_link_to_an_older_location_of_the_set_is_an_error(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    moved = tmp_path / "moved"
    set_root.rename(moved)

    found = only(doctor(tmp_path, moved, agent), "items")

    errors = [f for f in found if f.level == "error"]
    assert errors and all("older location of the set" in f.message for f in errors), found
    labels = {f.message.split(": ")[0] for f in errors}
    assert labels == {"notify", "gamma", "skill:review", "prompt:fix"}


def test_something_in_the_way_is_a_warning_and_not_installed_is_info(
    tmp_path: Path, set_root: Path
) -> None:
    agent = build_tree(tmp_path / "agent", {"extensions/notify.ts": "// mine\n"})

    found = only(doctor(tmp_path, set_root, agent), "items")

    assert [f.level for f in found] == ["warn", "info"]
    assert found[0].message.startswith("notify: extensions/notify.ts is a file of yours")
    assert found[1].message == "not installed: gamma, prompt:fix, skill:review"


def test_a_disabled_item_is_fine(tmp_path: Path, set_root: Path, agent: Path) -> None:
    (agent / "extensions" / "notify.ts").rename(agent / "extensions" / "notify.ts.off")

    found = only(doctor(tmp_path, set_root, agent), "items")

    assert [(f.level, f.message) for f in found] == [("ok", "3 enabled, 1 disabled")]


def test_a_dangling_foreign_link_is_a_warning(tmp_path: Path, set_root: Path, agent: Path) -> None:
    os.symlink(tmp_path / "nowhere.ts", agent / "extensions" / "theirs.ts")
    os.symlink(tmp_path / "nowhere.md", agent / "prompts" / "old.md.off")

    found = only(doctor(tmp_path, set_root, agent), "items.foreign")

    assert [(f.level, f.message.split()[0]) for f in found] == [
        ("warn", "extensions/theirs.ts"),
        ("info", "prompts/old.md.off"),
    ]
    assert found[0].fix == f"rm {agent / 'extensions' / 'theirs.ts'}"


def test_items_placed_by_hand_are_named_with_adopt_as_the_fix(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    """helper-75: pi loads them beside the set's, and `ext list` (the set's items) never
    shows them; nor ext's own links, a link of someone else's, or a file switched off."""
    assert [f.level for f in only(doctor(tmp_path, set_root, agent), "items.by-hand")] == ["ok"]
    build_tree(
        agent,
        {
            "extensions/handmade.ts": "export default function () {}\n",
            "extensions/my, ext.ts": "export default function () {}\n",  # adopt refuses it
            "extensions/parked.ts.off": "export default function () {}\n",
            "skills/own/SKILL.md": "---\nname: own\ndescription: x\n---\n",
        },
    )
    os.symlink(tmp_path / "elsewhere.md", agent / "prompts" / "theirs.md")

    [found] = only(doctor(tmp_path, set_root, agent), "items.by-hand")

    assert (found.level, found.message) == (
        "info",
        "pi also loads 3 items placed here by hand, in no set: handmade, 'my, ext', skill:own",
    )
    assert found.fix is not None and found.fix.startswith("ext adopt --all --dry-run")


def test_linked_and_registered_is_loaded_twice(tmp_path: Path, set_root: Path, agent: Path) -> None:
    data = json.loads((agent / "settings.json").read_text())
    data["packages"] = [str(set_root)]
    (agent / "settings.json").write_text(json.dumps(data))

    [finding] = only(doctor(tmp_path, set_root, agent), "loaded-twice")

    assert finding.level == "error"
    assert finding.message.startswith("the set is linked (")
    assert "pi loads each file once, the link first" in finding.message
    assert "a link parked as .off and `ext install --skip` have no effect" in finding.message
    assert "`ext disable` holds: it keeps the link, off by pi's -path" in finding.message
    assert finding.fix == f"drop the package: PI_CODING_AGENT_DIR={agent} pi remove {set_root}"


def test_linked_and_registered_names_what_loads_from_the_package(
    tmp_path: Path, set_root: Path
) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    install(resolve(env(tmp_path), set_root, agent), Install(skip=("notify",)), yes)
    (agent / "settings.json").write_text(json.dumps({"packages": [str(set_root)]}))

    found = doctor(tmp_path, set_root, agent)

    [twice] = only(found, "loaded-twice")
    assert twice.message.startswith("the set is linked (gamma, prompt:fix, skill:review) ")
    assert twice.message.endswith("; loaded from the package now: notify")
    [notify] = [f for f in only(found, "items") if f.message.startswith("notify:")]
    assert notify.level == "warn"
    assert notify.message.startswith("notify: ext did not link it, yet pi loads it: ")


def test_register_mode_is_loaded_once(tmp_path: Path, set_root: Path) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    install(resolve(env(tmp_path), set_root, agent), Install(mode="register"), yes)

    found = doctor(tmp_path, set_root, agent)

    assert level(found, "loaded-twice") == "ok"
    assert only(found, "items")[0].message.startswith("registered in settings.json as a package")
    assert level(found, "flags") == "ok"  # the package's flags are counted, not doubled
    # two of the package's, and ext's /ext (which registers none)
    said = only(found, "flags")[0].message
    assert said.startswith("2 flags across the 3 extensions pi loads here")


# ---- settings.json ----------------------------------------------------------


def test_unparseable_settings_is_an_error_with_line_and_column(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    (agent / "settings.json").write_text('{\n  "a": 1,\n  "b": ,\n}\n')

    found = doctor(tmp_path, set_root, agent)

    [finding] = only(found, "settings.json")
    assert finding.level == "error"
    assert "at line 3, column 8" in finding.message
    assert "nothing was changed" not in finding.message
    assert finding.fix is not None and "line 3, column 8" in finding.fix
    assert only(found, "settings.keys")[0].message.startswith("not checked")


@pytest.mark.parametrize("linked", [False, True], ids=["file", "dotfiles link"])
def test_a_settings_file_with_a_bom_has_a_fix_that_works_from_any_folder(
    tmp_path: Path, set_root: Path, agent: Path, linked: bool
) -> None:
    """helper-51: the fix said `sed -i … settings.json`, a path only the agent dir resolves;
    helper-58: on a dotfiles link, `sed -i` put a file in the link's place. The fix names the
    file the link leads to."""
    import subprocess

    real = agent / "settings.json"
    if linked:
        real = tmp_path / "dotfiles" / "pi-settings.json"
        real.parent.mkdir()
        (agent / "settings.json").unlink(missing_ok=True)
        (agent / "settings.json").symlink_to(real)
    real.write_bytes(b'\xef\xbb\xbf{"a": 1}\n')

    [finding] = only(doctor(tmp_path, set_root, agent), "settings.json")

    assert finding.level == "error" and finding.fix is not None
    command = finding.fix.removeprefix("remove it: ").partition(", or save")[0]
    subprocess.run(["sh", "-c", command], cwd=tmp_path, check=True)
    assert real.read_bytes() == b'{"a": 1}\n'
    assert (agent / "settings.json").is_symlink() is linked


@pytest.mark.parametrize(
    ("text", "host", "said"),
    [
        (b'\xef\xbb\xbf{"apiKeys": {}}', ("1.6.0", "@earendil-works"), "byte-order mark"),
        (
            b'{"a": 1, "a": 2, "apiKeys": {}}',
            ("0.73.1", "@mariozechner"),
            'duplicate key "a"',
        ),
    ],
    ids=["bom on pi 1.x", "duplicate key"],
)
def test_a_settings_file_the_pi_found_reads_is_a_warning_and_its_keys_are_checked(
    tmp_path: Path, set_root: Path, agent: Path, text: bytes, host: tuple[str, str], said: str
) -> None:
    """helper-58: a duplicate key (JSON.parse keeps the last) and a BOM on pi 1.x (it strips
    it) were errors, "pi cannot read", and the keys went unchecked: pi reads both files."""
    (agent / "settings.json").write_bytes(text)

    found = doctor(tmp_path, set_root, agent, fake_host(*host))

    [row] = only(found, "settings.json")
    assert row.level == "warn" and said in row.message, row
    assert "reads it; ext edits it once that is fixed" in row.message
    [keys] = only(found, "settings.keys")
    assert keys.level == "warn" and "apiKeys" in keys.message, keys


@pytest.mark.parametrize("mode", ["link", "register"])
@pytest.mark.parametrize("how", ["duplicate key", "no utf-8"])
def test_the_items_of_a_settings_file_pi_reads_with_a_duplicate_key_are_checked(
    tmp_path: Path, set_root: Path, agent: Path, mode: str, how: str
) -> None:
    """helper-60: doctor said `items: not checked: settings.json cannot be read` of a file
    with a duplicate key, which pi reads (its last value) and ext list read as pi does;
    helper-61: the same of a byte that is no UTF-8 (pi reads U+FFFD)."""
    install(resolve(env(tmp_path), set_root, agent), Install(mode=mode), yes)
    data = json.loads((agent / "settings.json").read_text())
    extra = ', "quietStartup": true, "quietStartup": false}' if how == "duplicate key" else None
    raw = (json.dumps(data)[:-1] + extra).encode() if extra else None
    raw = raw or json.dumps(data).encode().replace(b"{", b'{"note": "caf\xe9", ', 1)
    (agent / "settings.json").write_bytes(raw)

    found = only(doctor(tmp_path, set_root, agent), "items")

    assert found and not any(f.message.startswith("not checked") for f in found), found


def test_retired_and_renamed_keys_are_warnings(tmp_path: Path, set_root: Path, agent: Path) -> None:
    (agent / "settings.json").write_text('{"quietStartup": false, "apiKeys": {}, "queueMode": 1}')

    found = only(doctor(tmp_path, set_root, agent), "settings.keys")

    assert [(f.level, f.fix) for f in found] == [
        ("warn", "remove it from settings.json, or `ext settings migrate --remove-retired`"),
        ("warn", "ext settings migrate"),
    ]
    assert "'apiKeys', which was retired: moved to auth.json" in found[0].message
    assert "'queueMode', renamed to 'steeringMode'" in found[1].message


def test_a_renamed_key_migrate_cannot_move_names_what_to_do_by_hand(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    """`ext settings migrate` keeps both names when both are set, and cannot move a key under
    a parent that is not an object: the fix says what it says, not to run it again."""
    manifest = set_root / "extset.toml"
    manifest.write_text(manifest.read_text() + 'maxDelayMs = "retry.provider.maxRetryDelayMs"\n')
    settings = {
        "queueMode": "all",
        "steeringMode": "one",
        "maxDelayMs": 5,
        "retry": {"provider": 3},
    }
    (agent / "settings.json").write_text(json.dumps(settings))

    found = only(doctor(tmp_path, set_root, agent), "settings.keys")

    assert [(f.level, f.fix) for f in found] == [
        ("warn", "remove 'queueMode' by hand once 'steeringMode' holds what you want"),
        ("warn", "make 'retry.provider' an object, then `ext settings migrate`"),
    ]
    assert found[0].message.endswith("(both are set: pi reads 'steeringMode')")
    assert found[1].message.endswith(
        "('retry.provider' is not an object, so it cannot hold 'retry.provider.maxRetryDelayMs')"
    )


def test_a_seed_never_written_is_not_there_yet_and_a_present_one_ok(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    assert level(doctor(tmp_path, set_root, agent), "settings.seeds") == "ok"
    manifest = set_root / "extset.toml"
    manifest.write_text(manifest.read_text().replace("quietStartup", "collapseChangelog"))

    [finding] = only(doctor(tmp_path, set_root, agent), "settings.seeds")

    assert (finding.level, finding.fix) == ("info", "ext install")
    assert finding.message.endswith("not in settings.json yet: collapseChangelog = true")


def test_a_seed_removed_after_it_was_written_names_reseed_not_install(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    (agent / "settings.json").write_text("{}")  # the user deleted quietStartup

    [finding] = only(doctor(tmp_path, set_root, agent), "settings.seeds")

    assert finding.level == "info"
    assert "written here once and removed since: quietStartup = true" in finding.message
    assert "not in settings.json yet" not in finding.message
    assert finding.fix is not None and finding.fix.startswith("ext install --reseed")
    install(resolve(env(tmp_path), set_root, agent), Install(), yes)  # by design: no-op
    assert (agent / "settings.json").read_text() == "{}"
    install(resolve(env(tmp_path), set_root, agent), Install(reseed=True), yes)
    assert level(doctor(tmp_path, set_root, agent), "settings.seeds") == "ok"


def test_a_lock_file_or_an_old_lock_dir_is_an_error(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    lock = agent / "settings.json.lock"
    lock.write_text("")
    [as_file] = only(doctor(tmp_path, set_root, agent), "settings.lock")
    lock.unlink()
    lock.mkdir()
    [fresh] = only(doctor(tmp_path, set_root, agent), "settings.lock")
    old = time.time() - 60
    os.utime(lock, (old, old))
    [stale] = only(doctor(tmp_path, set_root, agent), "settings.lock")

    assert (as_file.level, as_file.fix) == ("error", f"rm {lock}")
    assert "reads it as empty (no packages, no switches, none of its settings)" in as_file.message
    assert fresh.level == "info"
    assert stale.level == "error" and stale.fix is not None and str(lock) in stale.fix


def test_doctor_takes_no_lock_and_writes_nothing(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    before = sorted(str(p) for p in agent.rglob("*"))

    doctor(tmp_path, set_root, agent)

    assert sorted(str(p) for p in agent.rglob("*")) == before


# ---- flags, the host --------------------------------------------------------


def test_a_flag_registered_by_two_extensions_names_both_files(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    theirs = agent / "extensions" / "theirs.ts"
    theirs.write_text('export default (pi) => {\n  pi.registerFlag("gamma", {});\n};\n')

    [finding] = only(doctor(tmp_path, set_root, agent), "flags")

    assert finding.level == "warn"
    assert finding.message.startswith("--gamma is registered by 2 extensions: ")
    assert f"{set_root / 'extensions' / 'gamma' / 'index.ts'}:1" in finding.message
    assert f"{theirs}:2" in finding.message


def test_an_extension_pi_config_switched_off_registers_no_flag(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    theirs = agent / "extensions" / "theirs.ts"
    theirs.write_text('export default (pi) => {\n  pi.registerFlag("gamma", {});\n};\n')
    data = json.loads((agent / "settings.json").read_text())
    data["extensions"] = ["-extensions/theirs.ts"]  # as pi config writes it: pi skips it
    (agent / "settings.json").write_text(json.dumps(data))

    [finding] = only(doctor(tmp_path, set_root, agent), "flags")

    assert finding.level == "ok", finding.message
    # the set's two, and ext's /ext (which registers none); theirs.ts is not counted
    assert finding.message.startswith("2 flags across the 3 extensions pi loads here")


def test_a_folder_extension_off_by_a_glob_or_its_entry_registers_no_flag(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    twin = agent / "extensions" / "twin"
    twin.mkdir()
    (twin / "index.ts").write_text('export default (pi) => { pi.registerFlag("gamma", {}); };\n')
    settings = agent / "settings.json"
    data = json.loads(settings.read_text())
    for patterns in (["-extensions/twin/index.ts"], ["!extensions/twin/**"]):
        settings.write_text(json.dumps({**data, "extensions": patterns}))
        [finding] = only(doctor(tmp_path, set_root, agent), "flags")
        assert finding.level == "ok", (patterns, finding.message)
    settings.write_text(
        json.dumps({**data, "extensions": ["!extensions/twin/**", "+extensions/twin/index.ts"]})
    )
    [finding] = only(doctor(tmp_path, set_root, agent), "flags")
    assert finding.level == "warn"  # `+path` brings it back, as pi reads it


def test_a_registered_extension_switched_off_in_its_entry_registers_no_flag(
    tmp_path: Path, set_root: Path
) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    install(resolve(env(tmp_path), set_root, agent), Install(mode="register"), yes)
    theirs = agent / "extensions" / "theirs.ts"
    theirs.write_text('export default (pi) => {\n  pi.registerFlag("gamma", {});\n};\n')
    assert level(doctor(tmp_path, set_root, agent), "flags") == "warn"
    settings = agent / "settings.json"
    data = json.loads(settings.read_text())
    data["packages"] = [{"source": str(set_root), "extensions": ["!extensions/gamma/**"]}]
    settings.write_text(json.dumps(data))

    [finding] = only(doctor(tmp_path, set_root, agent), "flags")

    assert finding.level == "ok", finding.message


def test_a_missing_host_is_a_warning_and_drift_is_a_warning(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    s = resolve_subject(env(tmp_path), set_root, agent, lambda _c, _p: None)
    missing = run_checks(s, ["host", "host.drift", "host.scope"])
    drifted = doctor(tmp_path, set_root, agent, fake_host("0.90.0"))

    assert [f.level for f in missing] == ["warn", "info", "info"]
    assert "pi was not found on PATH" in missing[0].message
    assert missing[0].fix is not None
    assert "npm install -g @earendil-works/pi-coding-agent (it needs Node >=22.19.0)" in (
        missing[0].fix
    )
    [drift] = only(drifted, "host.drift")
    assert drift.level == "warn"
    assert drift.message.startswith("pi 0.90.0 is newer than the versions this set was tested")
    assert drift.fix == (
        "install a tested version: npm install -g @mariozechner/pi-coding-agent@0.73.1, "
        "or re-test the set and widen [host] tested in extset.toml"
    )


BAD = (
    "// a value import: pi 0.73 cannot load the new scope\n"
    'import { getAgentDir } from "@earendil-works/pi-coding-agent";\n'
    "export default () => getAgentDir();\n"
)
PI_1 = fake_host("1.6.0", "@earendil-works")


def test_on_pi_0_73_a_value_import_from_the_new_scope_is_an_error_with_file_and_line(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    bad = set_root / "extensions" / "bad.ts"
    bad.write_text(BAD)

    found = only(doctor(tmp_path, set_root, agent), "host.scope")

    [finding] = found  # notify.ts imports only a type: fine
    assert finding.level == "error"
    assert finding.message == (
        f'bad: {bad}:2 imports a value from "@earendil-works/pi-coding-agent": '
        "pi 0.73.1 cannot load it"
    )
    assert finding.fix == (
        'import from "@mariozechner/pi-coding-agent" instead of '
        '"@earendil-works/pi-coding-agent" (or use `import type` if only types are needed)'
    )


def test_on_pi_1_x_the_new_scope_loads_and_is_said_to_fail_on_0_73(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    bad = set_root / "extensions" / "bad.ts"
    bad.write_text(BAD + 'import { Text } from "@earendil-works/pi-tui";\nText;\n')

    finding, fine = only(doctor(tmp_path, set_root, agent, PI_1), "host.scope")

    assert (fine.level, finding.level) == ("ok", "info")
    assert finding.message == (
        f'bad: {bad}:2 imports a value from "@earendil-works/pi-coding-agent", and 1 more '
        "import: pi 1.x loads it, pi 0.73 cannot"
    )
    assert finding.fix == (
        'to run on pi 0.73 too, import from "@mariozechner/pi-coding-agent" (every pi loads '
        "it), or use `import type` if only types are needed"
    )


def test_on_pi_1_x_a_value_import_from_the_old_scope_is_fine(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    # pi 1.x maps @mariozechner/pi-* onto its own modules: 50 false errors on pi-mono's examples.
    old = BAD.replace("@earendil-works", "@mariozechner")
    (set_root / "extensions" / "old.ts").write_text(old)

    [finding] = only(doctor(tmp_path, set_root, agent, PI_1), "host.scope")

    assert finding.level == "ok"
    assert finding.message == (
        "no extension imports a value from a pi scope pi 1.6.0 cannot load "
        "(4 files of 4 extensions; pi 1.x loads @earendil-works and @mariozechner)"
    )


@pytest.mark.parametrize("mode", ["link", "register"])
def test_an_extension_the_user_disabled_is_not_counted(
    tmp_path: Path, set_root: Path, mode: str
) -> None:
    from installer.commands.toggle import switch

    (set_root / "extensions" / "bad.ts").write_text(BAD)
    agent = tmp_path / "agent"
    agent.mkdir()
    ctx = resolve(env(tmp_path), set_root, agent)
    install(ctx, Install(mode=mode), yes)
    switch(ctx, ["bad", "gamma"], False, False, False, yes)

    [finding] = only(doctor(tmp_path, set_root, agent), "host.scope")

    # pi loads notify.ts and ext's /ext: bad.ts (`.off`, or a -path filter) and gamma/
    # (parked in .off/, or filtered) are off
    assert (finding.level, finding.message) == (
        "ok",
        "no extension imports a value from a pi scope pi 0.73.1 cannot load "
        "(2 files of 2 extensions; pi 0.73 loads @mariozechner)",
    )


def test_pi_coding_agent_dir_naming_another_dir_is_a_warning(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    found = doctor(tmp_path, set_root, agent, PI_CODING_AGENT_DIR=str(tmp_path / "other"))

    [finding] = only(found, "host.env")
    assert finding.level == "warn"
    assert finding.fix == f'eval "$(ext --agent-dir {agent} env)"'


def test_deep_turns_each_load_failure_into_an_error_on_its_item(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    entry = agent / "extensions" / "notify.ts"
    script = tmp_path / "fake-pi"
    script.write_text(
        "#!/bin/sh\n"
        f"echo 'Error: Failed to load extension \"{entry}\": Cannot find module x' >&2\n"
        "echo 'No API key found' >&2\nexit 1\n"
    )
    script.chmod(0o755)
    host = HostInfo(
        "pi", script, script, "0.73.1", "@mariozechner/pi-coding-agent", "@mariozechner"
    )

    found = only(doctor(tmp_path, set_root, agent, host, deep=True), "host.load")

    assert [(f.level, f.message) for f in found] == [
        ("error", f"notify: pi could not load {entry}: Cannot find module x")
    ]


# ---- consent, crashes -------------------------------------------------------


def test_approved_hooks_that_changed_are_a_warning(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    from installer.consent import commands

    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]}]}
    proj = build_tree(tmp_path / "proj", {".claude/settings.json": json.dumps({"hooks": hooks})})
    commands.approve(agent, proj, commands.describe_approval(agent, proj))
    assert level(doctor(tmp_path, set_root, agent), "consent") == "ok"
    hooks["PreToolUse"][0]["hooks"][0]["command"] = "b"
    (proj / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))

    [finding] = only(doctor(tmp_path, set_root, agent), "consent")

    assert finding.level == "warn" and str(proj) in finding.message
    assert finding.fix == f"ext consent approve {proj}"


def test_an_empty_hooks_folder_is_named_as_the_cause_of_pi_s_warning_with_rmdir(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    (agent / "hooks").mkdir()
    [finding] = only(doctor(tmp_path, set_root, agent), "agent.hooks")
    assert finding.level == "warn"
    assert "hooks/ directory found" in finding.message and "holds nothing" in finding.message
    assert finding.fix == f"rmdir {agent / 'hooks'}"


def test_a_crashing_check_is_reported_as_failed_and_the_others_still_run(
    tmp_path: Path, set_root: Path, agent: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from installer.doctor.checks import flags

    def broken(*_a: object) -> None:
        raise ValueError("scanner bug")

    monkeypatch.setattr(flags, "sites", broken)

    found = doctor(tmp_path, set_root, agent)

    [crash] = only(found, "flags")
    assert crash.level == "failed" and "ValueError: scanner bug" in crash.message
    assert level(found, "host") == "ok" and level(found, "items") == "ok"


def test_updates_come_from_the_cache_only(tmp_path: Path, set_root: Path, agent: Path) -> None:
    found = only(doctor(tmp_path, set_root, agent), "updates")

    assert found and {f.level for f in found} <= {"ok", "info"}


def test_an_item_on_while_one_it_requires_is_off_is_a_warning(tmp_path: Path) -> None:
    """helper-86: disable top, disable base (allowed: top is off), enable top: top ran without
    base, and doctor said only that base was off."""
    root = build_tree(
        tmp_path / "guarded",
        {
            "extset.toml": '[set]\nname = "g"\n[guards.base]\nrequired_by = ["top"]\n',
            "extensions/base.ts": "export default function () {}\n",
            "extensions/top.ts": "export default function () {}\n",
        },
    )
    agent = tmp_path / "guarded-agent"
    agent.mkdir()
    install(resolve(env(tmp_path), root, agent), Install(), yes)
    assert [f for f in only(doctor(tmp_path, root, agent), "items") if f.level == "warn"] == []
    (agent / "extensions" / "base.ts").rename(agent / "extensions" / "base.ts.off")
    warned = [f for f in only(doctor(tmp_path, root, agent), "items") if f.level == "warn"]
    assert [(f.message, f.fix) for f in warned] == [
        (
            "top is on, but base, which it requires, is off: top may fail to load or misbehave",
            "ext enable base, or ext disable top",
        )
    ]
    (agent / "extensions" / "base.ts.off").unlink()  # as `ext install --skip base` leaves it
    warned = [f for f in only(doctor(tmp_path, root, agent), "items") if f.level == "warn"]
    assert [(f.message, f.fix) for f in warned] == [
        (
            "top is on, but base, which it requires, is not installed: top may fail to load or "
            "misbehave",
            "ext enable base, or ext disable top",
        )
    ]


def test_in_register_mode_a_requirement_left_out_is_said_as_list_says_it(tmp_path: Path) -> None:
    """helper-88: with `--skip base` in register mode, `ext list` said base `not-installed`
    and doctor "base, which it requires, is off"."""
    root = build_tree(
        tmp_path / "registered",
        {
            "extset.toml": '[set]\nname = "r"\nmode = "register"\n'
            '[extensions.top]\nrequires = ["base"]\n',
            "extensions/base.ts": "export default function () {}\n",
            "extensions/top.ts": "export default function () {}\n",
        },
    )
    agent = tmp_path / "registered-agent"
    agent.mkdir()
    install(resolve(env(tmp_path), root, agent), Install(skip=("base",)), yes)
    warned = [f for f in only(doctor(tmp_path, root, agent), "items") if f.level == "warn"]
    assert [f.message for f in warned] == [
        "top is on, but base, which it requires, is not installed: top may fail to load or "
        "misbehave"
    ]


def test_a_row_of_the_updates_check_is_checked_alone(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    """helper-86: `--check updates.ext` printed all four rows of the updates check."""
    s = resolve_subject(env(tmp_path), set_root, agent, lambda _c, _p: fake_host())
    assert [f.id for f in run_checks(s, ["updates.ext"])] == ["updates.ext"]
    assert [f.id for f in run_checks(s, ["updates.set", "updates.host"])] == [
        "updates.host",
        "updates.set",
    ]
    assert len(run_checks(s, ["updates"])) == 4


def test_subject_is_usable_without_resolution() -> None:
    s = Subject(Env(environ={}, cwd=Path("/")))
    assert s.ctx is None and s.host_command == "pi"


def test_an_index_ts_in_the_agent_s_extensions_is_an_error_naming_it(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    build_tree(agent, {"extensions/index.ts": "export default function () {}\n"})

    [finding] = only(doctor(tmp_path, set_root, agent), "agent.folders")

    assert finding.level == "error"
    assert "extensions/index.ts" in finding.message and "as one extension" in finding.message
    assert finding.fix is not None and "extensions/<name>/" in finding.fix


def test_a_package_json_naming_extensions_in_the_agent_s_extensions_is_named_as_the_cause(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    """pi.extensions of extensions/package.json names the set's own link: moving that link
    changes nothing, the package.json is what makes the folder one extension."""
    manifest = {"name": "x", "pi": {"extensions": ["./notify.ts"]}}
    (agent / "extensions" / "package.json").write_text(json.dumps(manifest))

    [finding] = only(doctor(tmp_path, set_root, agent), "agent.folders")

    assert finding.level == "error"
    assert "because of extensions/package.json (its pi.extensions)" in finding.message
    assert finding.fix is not None and finding.fix.startswith("move extensions/package.json ")
    (agent / "extensions" / "package.json").rename(agent / "package.json.aside")
    assert level(doctor(tmp_path, set_root, agent), "agent.folders") == "ok"


def test_ext_command_is_installed_with_the_ext_that_ran_and_doctor_follows_it(
    tmp_path: Path, set_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from installer.agent.recorder import COMMAND, status
    from installer.ground.state import load_state

    agent = tmp_path / "fresh"
    agent.mkdir(mode=0o755)
    assert only(doctor(tmp_path, set_root, agent), "command")[0].message == (
        "/ext is not available in pi: the set is not installed here yet"
    )
    ext_bin = build_tree(tmp_path / "bin", {"ext": "#!/bin/sh\n"}) / "ext"
    monkeypatch.setattr(sys, "argv", [str(ext_bin), "install"])
    install(resolve(env(tmp_path), set_root, agent), Install(), yes)

    record = load_state(agent).for_root(set_root)
    assert record is not None and record.extra["command"]["ext"] == str(ext_bin)
    assert status(agent, COMMAND) == "current"
    (row,) = only(doctor(tmp_path, set_root, agent), "command")
    assert (row.level, row.message) == (
        "ok",
        f"/ext is available in pi ({COMMAND.dest}, runs {ext_bin})",
    )

    ext_bin.unlink()
    (row,) = only(doctor(tmp_path, set_root, agent, PATH=str(ext_bin.parent)), "command")
    assert row.level == "warn" and f"({ext_bin}) is gone: /ext cannot run" in row.message
    on_path = build_tree(tmp_path / "path", {"ext": "#!/bin/sh\n"}) / "ext"
    on_path.chmod(0o755)
    (row,) = only(doctor(tmp_path, set_root, agent, PATH=str(on_path.parent)), "command")
    assert row.level == "warn" and f"({ext_bin}) is gone: /ext cannot run" in row.message

    Path(os.readlink(agent / COMMAND.dest)).write_text("// an older /ext\n")
    (row,) = only(doctor(tmp_path, set_root, agent), "command")
    assert row.level == "warn" and row.message.startswith("/ext is older than the one")
    assert row.fix == "ext install"


def test_ext_command_switched_off_in_pi_config_is_not_available(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    from installer.agent.recorder import COMMAND

    off = {"extensions": [f"-{COMMAND.dest}"]}  # `pi config` lists /ext as an ordinary item
    (agent / "settings.json").write_text(json.dumps(off))

    (row,) = only(doctor(tmp_path, set_root, agent), "command")

    assert row.level == "info" and row.message.startswith("/ext is not available in pi")
    assert f"-{COMMAND.dest}" in row.message and "pi config" in (row.fix or "")


def test_a_declaration_file_among_the_extensions_is_a_warning(tmp_path: Path, agent: Path) -> None:
    """pi imports extensions/types.d.ts like any .ts, finds no factory, and says so each start."""
    set_root = build_tree(
        tmp_path / "dts",
        {
            "extset.toml": '[set]\nname = "dts"\n',
            "extensions/a.ts": "export default function () {}\n",
            "extensions/types.d.ts": "export type Width = number;\n",
        },
    )
    rows = [(f.level, f.message) for f in only(doctor(tmp_path, set_root, agent), "set.resources")]
    assert rows == [
        (
            "warn",
            "extensions/types.d.ts is a TypeScript declaration file where pi loads every .ts as "
            "an extension: pi fails to load it at every start (it exports no factory)",
        )
    ]


@pytest.mark.parametrize(
    ("folder", "fix"),
    [
        ("extensions/half", "add an index.ts in it to make it one"),
        ("skills/half", "add a SKILL.md in it to make it one"),
    ],
)
def test_a_folder_that_is_not_an_item_names_the_file_that_makes_it_one(
    tmp_path: Path, set_root: Path, folder: str, fix: str
) -> None:
    build_tree(set_root, {f"{folder}/notes.txt": "not yet\n"})
    [row] = [
        f for f in only(doctor(tmp_path, set_root, None), "set.resources") if "half" in f.message
    ]
    assert (row.level, row.fix) == ("info", fix)
    build_tree(set_root, {f"{folder}/{fix.split()[2]}": "---\nname: half\ndescription: d\n---\n"})
    assert not [
        f for f in only(doctor(tmp_path, set_root, None), "set.resources") if "half" in f.message
    ]


def test_an_agent_dir_whose_path_is_not_utf8_is_an_error_as_every_command_refuses_it(
    tmp_path: Path, set_root: Path
) -> None:
    """A trial (helper-42): doctor said ok of a dir that install, list and env refuse (exit 2),
    and showed its byte as `\\udcff`."""
    agent = Path(os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xff"))
    agent.mkdir()

    found = doctor(tmp_path, set_root, agent)

    [row] = only(found, "agent.dir")
    assert row.level == "error"
    assert "is not UTF-8" in row.message
    from installer.render.ui import escape

    assert escape(row.message).count("\\xff") == 1


def test_the_ignore_line_a_walk_refusal_gives_quiets_doctor_too(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    """helper-61: pasted, the `.ignore` line made `ext list` pass, and doctor walked
    skills/g2 without skills/.ignore and kept the same error."""
    build_tree(set_root, {"skills/g1/real/SKILL.md": "---\nname: real\ndescription: r\n---\n"})
    (set_root / "skills/g2").mkdir()
    os.symlink("..", set_root / "skills/g2/up")
    [before] = only(doctor(tmp_path, set_root, agent), "set.resources")
    assert before.level == "error" and "g2/up is a link back to" in before.message

    (set_root / "skills/.ignore").write_text("g2/up\n")

    after = only(doctor(tmp_path, set_root, agent), "set.resources")
    assert "error" not in [f.level for f in after], after


def test_quiet_doctor_before_the_first_install_shows_the_missing_dir_once(
    isolated_home: Path,
) -> None:
    """helper-81: on a fresh HOME, `ext -q doctor` printed eighteen rows of `not checked: the
    agent dir does not exist yet` under the row that says so: -q folds them under it, as it
    does a named dir that does not exist."""
    from click.testing import CliRunner

    from installer.cli.app import app

    done = CliRunner().invoke(app, ["-q", "doctor"], env={"EXT_NO_UPDATE_CHECK": "1"})
    rows = [line for line in done.stdout.splitlines() if line[:1] not in (" ", "")]
    assert not [r for r in rows if "not checked: the agent dir" in r], rows
    assert "agent.dir" in rows[0] and "(ext's isolated default) does not exist yet" in rows[0]
