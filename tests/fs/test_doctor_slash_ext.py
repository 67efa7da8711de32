"""doctor on `/ext`: the ext it runs, a set command named ext, pi's own command list."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.doctor import Finding, resolve_subject, run_checks
from installer.doctor.checks.slash_ext import pi_finding
from installer.ground.context import Env, resolve
from installer.host.loader import Command
from tests.helpers import build_tree, remove_deep, yes

SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/notify.ts": "export default function () {}\n",
}
CLASH = 'export default function (pi) {\n  pi.registerCommand( "ext", { handler() {} });\n}\n'


def env(tmp_path: Path) -> Env:
    return Env(environ=dict(os.environ), cwd=tmp_path)


def findings(tmp_path: Path, root: Path, agent: Path, check: str) -> list[Finding]:
    s = resolve_subject(env(tmp_path), root, agent, lambda _c, _p: None)
    return run_checks(s, [check])


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """The set installed by an ext at tmp/bin/ext (what /ext will run)."""
    root = build_tree(tmp_path / "set", dict(SET))
    agent = tmp_path / "agent"
    agent.mkdir(mode=0o755)
    ext_bin = build_tree(tmp_path / "bin", {"ext": "#!/bin/sh\n"}) / "ext"
    ext_bin.chmod(0o755)
    (tmp_path / "bin").chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(ext_bin), "install"])
    install(resolve(env(tmp_path), root, agent), Install(), yes)
    return root, agent, ext_bin


def test_the_ext_that_only_you_can_change_is_ok(
    tmp_path: Path, installed: tuple[Path, Path, Path]
) -> None:
    root, agent, ext_bin = installed
    [row] = findings(tmp_path, root, agent, "command.ext")
    assert (row.level, row.message) == ("ok", f"only you can change the ext /ext runs ({ext_bin})")


def test_an_ext_gone_since_the_install_is_not_checked_and_said_plainly(
    tmp_path: Path, installed: tuple[Path, Path, Path]
) -> None:
    """helper-72: the row read `not checked: no ext recorded for /ext is there`."""
    root, agent, ext_bin = installed
    ext_bin.unlink()
    [row] = findings(tmp_path, root, agent, "command.ext")
    assert (row.level, row.message) == (
        "info",
        "not checked: the ext /ext runs is not recorded, or is gone (see command)",
    )


@pytest.mark.parametrize("loose", ["file", "folder"])
def test_a_world_writable_ext_or_folder_warns_naming_it(
    tmp_path: Path, installed: tuple[Path, Path, Path], loose: str
) -> None:
    root, agent, ext_bin = installed
    target = ext_bin if loose == "file" else ext_bin.parent
    target.chmod(0o777)
    [row] = findings(tmp_path, root, agent, "command.ext")
    assert row.level == "warn"
    assert row.message.startswith(f"writable by group or others: {target}; /ext runs it as you")
    assert row.fix == f"chmod go-w {target}"


def test_the_file_a_shim_leads_to_counts_too(
    tmp_path: Path, installed: tuple[Path, Path, Path]
) -> None:
    root, agent, ext_bin = installed
    real = build_tree(tmp_path / "venv", {"bin/ext": "#!/bin/sh\n"}) / "bin" / "ext"
    real.chmod(0o777)
    ext_bin.unlink()
    ext_bin.symlink_to(real)
    [row] = findings(tmp_path, root, agent, "command.ext")
    assert row.level == "warn" and str(real) in row.message


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_an_ext_owned_by_another_user_warns(
    tmp_path: Path, installed: tuple[Path, Path, Path]
) -> None:
    root, agent, ext_bin = installed
    os.chown(ext_bin, 4242, -1)
    [row] = findings(tmp_path, root, agent, "command.ext")
    assert row.level == "warn" and row.message.startswith(f"owned by another user: {ext_bin}")


def test_a_set_extension_registering_ext_is_a_warning_naming_the_file(
    tmp_path: Path, installed: tuple[Path, Path, Path]
) -> None:
    root, agent, _ = installed
    [row] = findings(tmp_path, root, agent, "command.name")
    assert row.level == "ok"
    build_tree(root, {"extensions/impostor/index.ts": "import './cmd';\n"})
    build_tree(root, {"extensions/impostor/cmd.ts": CLASH})
    [row] = findings(tmp_path, root, agent, "command.name")
    assert row.level == "warn"
    assert row.message.startswith(f"{root / 'extensions/impostor/cmd.ts'} registers a command")
    assert "/ext:1 and /ext:2" in row.message


OURS = "/agent/.extset/agent/ext-command-abc.ts"
THEIRS = "/set/extensions/impostor.ts"


def test_pis_command_list_decides_whose_ext_it_is() -> None:
    dest = "extensions/ext-command.ts"
    mine = Command("ext", "ext", "/agent/extensions/ext-command.ts", OURS)
    assert pi_finding([mine], OURS, dest).level == "ok"

    renamed = [
        dataclasses.replace(mine, invocation="ext:1"),
        Command("ext", "ext:2", THEIRS, THEIRS),
    ]
    found = pi_finding(renamed, OURS, dest)
    assert found.level == "error"
    assert found.message == (
        f"pi offers no /ext: {THEIRS} also registers ext, so pi renamed both (/ext:1, /ext:2)"
    )

    theirs = pi_finding([Command("ext", "ext", THEIRS, THEIRS)], OURS, dest)
    assert theirs.level == "error" and "it is " + THEIRS + "'s" in theirs.message
    none = pi_finding([Command("review", "review", THEIRS, THEIRS)], OURS, dest)
    assert none.level == "error" and none.message.startswith("pi does not load ext's /ext")


def test_a_deep_extension_folder_does_not_crash_the_scan(
    tmp_path: Path, installed: tuple[Path, Path, Path]
) -> None:
    root, agent, _ = installed
    folder = root / "extensions" / "deep"
    folder.mkdir()
    (folder / "index.ts").write_text("export default function () {}\n")
    for _ in range(1000):  # os.walk recurses per level: it would end in a RecursionError
        folder = folder / "a"
        folder.mkdir()
    (folder / "cmd.ts").write_text(CLASH)
    try:
        [row] = findings(tmp_path, root, agent, "command.name")
    finally:
        remove_deep(root / "extensions" / "deep")  # pass or fail: pytest's rmtree recurses
    assert row.level == "ok"  # a registration that deep is past what doctor reads


def test_from_another_set_the_ext_of_the_set_that_installed_ext_is_checked(
    tmp_path: Path, installed: tuple[Path, Path, Path]
) -> None:
    """One /ext serves every set of the agent dir: doctor run from a set not installed there
    reads the ext the installing set's record names, and its fix names that set."""
    root, agent, ext_bin = installed
    other = build_tree(tmp_path / "other", {"extset.toml": '[set]\nname = "other"\n'})
    [row] = findings(tmp_path, other, agent, "command")
    assert (row.level, row.message) == (
        "ok",
        f"/ext is available in pi (extensions/ext-command.ts, runs {ext_bin})",
    )
    [row] = findings(tmp_path, other, agent, "command.ext")
    assert row.level == "ok"
    ext_bin.unlink()
    [row] = findings(tmp_path, other, agent, "command")
    assert row.level == "warn"
    assert row.fix == f"run `ext --set {root} install` with the ext you use now"


def test_a_set_extension_registering_ext_switched_off_here_is_no_clash_in_pi(
    tmp_path: Path, installed: tuple[Path, Path, Path]
) -> None:
    """command.pi's fix is `ext disable` it: done, command.name says pi's /ext is ext's."""
    from installer.commands.toggle import switch

    root, agent, _ = installed
    build_tree(root, {"extensions/impostor.ts": CLASH})
    install(resolve(env(tmp_path), root, agent), Install(), yes)
    [row] = findings(tmp_path, root, agent, "command.name")
    assert row.level == "warn" and "`ext disable impostor`" in (row.fix or "")
    switch(resolve(env(tmp_path), root, agent), ["impostor"], False, False, False, yes)
    assert (agent / "extensions/impostor.ts.off").is_symlink()
    [row] = findings(tmp_path, root, agent, "command.name")
    assert row.level == "info" and "switched off here, so pi's /ext is ext's" in row.message


@pytest.mark.parametrize(
    ("manifest", "mode"),
    [
        ('[set]\nname = "tools"\nswitch = "pi"\n', "link"),  # off as pi config's `-path`
        ('[set]\nname = "tools"\n', "register"),  # off by the packages entry's filter
    ],
    ids=["switch=pi", "register"],
)
def test_the_disable_command_name_names_clears_it_in_every_style(
    tmp_path: Path, installed: tuple[Path, Path, Path], manifest: str, mode: str
) -> None:
    """The fix is `ext disable NAME`: once run, the warning goes, however the set switches."""
    from installer.commands.toggle import switch

    root, agent, _ = installed
    build_tree(root, {"extset.toml": manifest, "extensions/impostor.ts": CLASH})
    ctx = resolve(env(tmp_path), root, agent)
    install(ctx, Install(mode=mode), yes)
    [row] = findings(tmp_path, root, agent, "command.name")
    assert row.level == "warn" and "`ext disable impostor`" in (row.fix or "")

    switch(resolve(env(tmp_path), root, agent), ["impostor"], False, False, False, yes)

    [row] = findings(tmp_path, root, agent, "command.name")
    assert row.level == "info" and "switched off here, so pi's /ext is ext's" in row.message


def test_an_agent_dir_moved_since_the_install_gets_its_ext_link_back_from_install(
    tmp_path: Path, installed: tuple[Path, Path, Path]
) -> None:
    """A trial: after `mv ~/a1 ~/a2`, /ext's link led to ~/a1's copy; doctor called it a link
    "not ext's, so left alone" (fix: rm) and told to run `ext install`, which left it as
    "taken by something that is not ext's": round in circles."""
    from installer.commands.uninstall import Uninstall, uninstall

    root, agent, _ = installed
    moved = agent.with_name("moved")
    agent.rename(moved)
    [row] = findings(tmp_path, root, moved, "command")
    assert (row.level, row.message) == (
        "warn",
        "/ext is not available in pi: extensions/ext-command.ts leads to where the agent dir "
        "was before it moved",
    )
    assert row.fix is not None and row.fix.endswith("install")
    assert [f.level for f in findings(tmp_path, root, moved, "items.foreign")] == ["ok"]

    result = install(resolve(env(tmp_path), root, moved), Install(), yes)
    assert not result.warnings, result.warnings
    link = moved / "extensions" / "ext-command.ts"
    assert os.readlink(link).startswith(str(moved / ".extset" / "agent")) and link.is_file()
    assert [f.level for f in findings(tmp_path, root, moved, "command")] == ["ok"]

    again = moved.with_name("again")  # moved once more, then uninstalled there
    moved.rename(again)
    uninstall(resolve(env(tmp_path), root, again), Uninstall(), yes)
    assert not os.path.lexists(again / "extensions" / "ext-command.ts")  # not left dangling


def test_a_dead_link_by_ext_s_copy_name_in_a_dir_ext_never_linked_it_in_stays_the_user_s(
    tmp_path: Path,
) -> None:
    """helper-19's review: the rule above took any dead link to a copy by ext's name for ext's
    (a link into another agent dir, on a drive not mounted): install replaced it, uninstall
    of a set never installed there removed it. Only the dir's own record makes it ext's."""
    from installer.commands.uninstall import Uninstall, uninstall

    root = build_tree(tmp_path / "set", dict(SET))
    elsewhere = "/mnt/usb/agent/.extset/agent/ext-command-0123456789ab.ts"
    agent = build_tree(tmp_path / "agent", {"extensions/ext-command.ts": Path(elsewhere)})
    link = agent / "extensions" / "ext-command.ts"

    ctx = resolve(env(tmp_path), root, agent)
    assert not uninstall(ctx, Uninstall(), yes).plan.actions  # nothing of the set's here
    result = install(ctx, Install(), yes)
    assert os.readlink(link) == elsewhere
    assert any("is taken by something that is not" in w for w in result.plan.warnings), result
    [row] = findings(tmp_path, root, agent, "items.foreign")
    assert row.level == "warn" and "extensions/ext-command.ts" in row.message
