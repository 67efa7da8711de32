"""Bad input gets a clear error (message and fix) and loses nothing."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.commands.uninstall import Uninstall, uninstall
from installer.ground.context import Context, Env, resolve
from installer.ground.errors import ExitCode, ExtError, UsageError
from tests.helpers import build_tree, snapshot, unwrapped, yes

EXT = Path(sys.executable).with_name("ext")
SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/notify.ts": "export default function notify() {}\n",
    "extensions/gamma/index.ts": "export default function gamma() {}\n",
    "skills/review/SKILL.md": "# review\n",
}


def context(set_root: Path, agent: Path) -> Context:
    return resolve(Env(environ=dict(os.environ), cwd=set_root.parent), set_root, agent)


def refused(
    exit_code: ExitCode, set_root: Path, agent: Path, only: list[str] | None = None
) -> ExtError:
    """Run install; it must raise with exit_code, a message and a fix."""
    with pytest.raises(ExtError) as err:
        install(context(set_root, agent), Install(only=tuple(only or [])), yes)
    assert err.value.exit_code == exit_code, err.value.message
    assert err.value.message
    assert err.value.fix
    return err.value


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(SET))


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "agent", {"extensions/notify.ts": "mine\n"})


def test_an_agent_dir_that_is_a_file_is_exit_4(tmp_path: Path, set_root: Path) -> None:
    path = build_tree(tmp_path, {"agent": "not a folder\n"}) / "agent"
    err = refused(ExitCode.NO_AGENT_DIR, set_root, path)
    assert "is a file" in err.message
    assert path.read_text() == "not a folder\n"


def test_a_set_with_no_manifest_and_no_extensions_is_exit_2(tmp_path: Path, agent: Path) -> None:
    empty = build_tree(tmp_path / "empty", {"README.md": "hi\n"})
    before = snapshot(agent)
    with pytest.raises(ExtError) as err:
        context(empty, agent)
    assert err.value.exit_code == ExitCode.USAGE
    assert "is not a set" in err.value.message
    assert "--set" in (err.value.fix or "")
    assert snapshot(agent) == before


@pytest.mark.parametrize(
    ("manifest", "inner"),
    [("extset.toml", "extensions"), ("extset.toml", "skills/review"), (None, "extensions")],
)
def test_a_folder_inside_a_set_names_the_set_not_an_init_of_itself(
    tmp_path: Path, agent: Path, manifest: str | None, inner: str
) -> None:
    """`--set .` typed in the set's extensions/ folder suggested `ext init` of that folder: the
    set is the folder above (with a manifest or without), and the fix says so."""
    if manifest:
        build_tree(tmp_path / "my set", {manifest: '[set]\nname = "mine"\n'})
    folder = build_tree(tmp_path / "my set" / inner, {"README.md": "hi\n"})
    folder_set = tmp_path / "my set"
    with pytest.raises(ExtError) as err:
        context(folder, agent)
    assert err.value.exit_code == ExitCode.USAGE
    assert err.value.message == f"{folder} is not a set but a folder inside the set {folder_set}"
    assert err.value.fix == f"point --set at that folder: --set '{folder_set}'"


@pytest.mark.parametrize(
    "clash",
    [
        {"extensions/notify.js": "module.exports = 1\n"},
        {"extensions/notify/index.ts": "export default 1\n"},
    ],
    ids=["ts-and-js", "file-and-folder"],
)
def test_two_resources_with_one_name_are_exit_2(
    set_root: Path, agent: Path, clash: dict[str, str | bytes | Path | None]
) -> None:
    build_tree(set_root, clash)
    before = snapshot(agent)
    err = refused(ExitCode.USAGE, set_root, agent)
    assert "two extensions are named 'notify'" in err.message
    assert snapshot(agent) == before


@pytest.mark.parametrize("name", ["../notify", "extensions/notify", "..", "a/../b"])
def test_a_path_given_as_a_name_is_exit_2(set_root: Path, agent: Path, name: str) -> None:
    before = snapshot(agent)
    err = refused(ExitCode.USAGE, set_root, agent, only=[name])
    assert repr(name) in err.message
    assert snapshot(agent) == before


def test_a_resource_with_a_bad_name_in_the_set_is_exit_2(set_root: Path, agent: Path) -> None:
    build_tree(set_root, {"extensions/-rf.ts": "x\n"})
    err = refused(ExitCode.USAGE, set_root, agent)
    assert "'-rf'" in err.message


def test_a_resource_that_links_out_of_the_set_is_refused(
    tmp_path: Path, set_root: Path, agent: Path
) -> None:
    secret = build_tree(tmp_path / "private", {"key.ts": "secret\n"}) / "key.ts"
    build_tree(set_root, {"extensions/key.ts": secret})
    before = snapshot(agent)
    err = refused(ExitCode.FAILED, set_root, agent)
    assert "leads out of the set" in err.message
    assert snapshot(agent) == before


def test_a_link_that_stays_inside_the_set_is_a_resource(set_root: Path, agent: Path) -> None:
    build_tree(set_root, {"extensions/alias.ts": set_root / "extensions/notify.ts"})
    install(context(set_root, agent), Install(only=("alias",)), yes)
    assert os.path.realpath(agent / "extensions/alias.ts") == str(set_root / "extensions/notify.ts")


def test_a_dangling_symlink_where_extensions_should_be_is_exit_1_and_left(
    tmp_path: Path, set_root: Path
) -> None:
    agent = build_tree(tmp_path / "agent", {"extensions": tmp_path / "gone"})
    before = snapshot(agent)
    err = refused(ExitCode.FAILED, set_root, agent)
    assert "is a symlink" in err.message
    assert "mkdir" in (err.fix or "")
    assert snapshot(agent) == before
    assert not (tmp_path / "gone").exists()


def test_extensions_linked_into_the_set_is_refused_and_nothing_is_written_through_it(
    set_root: Path, tmp_path: Path
) -> None:
    agent = build_tree(tmp_path / "agent", {"extensions": set_root / "extensions"})
    set_before, agent_before = snapshot(set_root), snapshot(agent)
    refused(ExitCode.FAILED, set_root, agent)
    with pytest.raises(ExtError) as err:
        uninstall(context(set_root, agent), Uninstall(), yes)
    assert err.value.exit_code == ExitCode.FAILED
    assert snapshot(set_root) == set_before
    assert snapshot(agent) == agent_before


@pytest.mark.parametrize("folder", ["skills", "extensions/.bak", "extensions/.off", "skills/.off"])
def test_a_resource_folder_or_its_dot_folder_linked_elsewhere_is_refused(
    set_root: Path, tmp_path: Path, agent: Path, folder: str
) -> None:
    build_tree(agent, {"extensions/gamma/index.ts": "mine\n"})
    elsewhere = build_tree(tmp_path / "elsewhere", {"keep.txt": "keep\n"})
    build_tree(agent, {folder: elsewhere})
    before, outside = snapshot(agent), snapshot(elsewhere)
    err = refused(ExitCode.FAILED, set_root, agent)
    assert str(agent / folder) in err.message
    assert snapshot(agent) == before
    assert snapshot(elsewhere) == outside


def test_an_agent_dir_that_is_the_set_itself_is_refused(set_root: Path) -> None:
    """A usage error naming the agent dir and the set (helper-77: exit 1, as a failure
    rolled back, and the resource folder said twice, as itself and as the set); a set
    without a manifest (a pi package, plain folders) is caught by its folders."""
    (set_root / "extset.toml").unlink()
    before = snapshot(set_root)
    err = refused(ExitCode.USAGE, set_root, set_root)
    real = set_root.resolve()
    assert err.message == (
        f"the agent dir {set_root} would put its extensions/ in the set {set_root} "
        f"(as {real / 'extensions'}): ext would write into the set"
    )
    # not `--agent-dir` alone: PI_CODING_AGENT_DIR may have named it (an older note's finding)
    assert err.fix is not None and "PI_CODING_AGENT_DIR" in err.fix
    assert snapshot(set_root) == before


@pytest.mark.parametrize("host", ["pi", "claude"])
def test_an_agent_dir_that_is_any_sets_folder_is_refused(
    set_root: Path, tmp_path: Path, isolated_home: Path, host: str
) -> None:
    """helper-81: `ext install --agent-dir ~/my-set` (the bundled set into the user's own set)
    wrote its links, settings.json and .extset/ into that set, and every command run there
    then failed on them. A folder holding an extset.toml is a set's, never an agent dir: an
    install into it is refused, for any host (helper-84: `--host claude` went round it)."""
    from click.testing import CliRunner

    from installer.cli.app import app

    mine = build_tree(tmp_path / "mine", {"extset.toml": '[set]\nname = "mine"\n'})
    for agent in (mine, set_root):
        before = snapshot(agent)
        argv = ["--set", str(set_root), "--host", host, "--agent-dir", str(agent), "install"]
        done = CliRunner().invoke(app, [*argv, "--yes"])
        assert done.exit_code == ExitCode.USAGE, done.output
        assert f"agent dir {agent} (--agent-dir) is a set's folder" in done.stderr
        assert snapshot(agent) == before


def test_a_sets_folder_an_older_ext_installed_into_can_be_cleaned_up(
    set_root: Path, tmp_path: Path
) -> None:
    """helper-83: the refusal above also refused uninstall and undo of a dir an older ext had
    already written into, the one way out of it."""
    victim = tmp_path / "victim"
    victim.mkdir()
    install(context(set_root, victim), Install(), yes)
    (victim / "extset.toml").write_text('[set]\nname = "victim"\n')  # it was a set all along
    from installer.commands.uninstall import Uninstall, uninstall

    uninstall(context(set_root, victim), Uninstall(), yes)
    assert not (victim / "extensions").exists()


def test_an_agent_dir_inside_the_set_is_fine(set_root: Path) -> None:
    agent = set_root / ".agent"
    agent.mkdir()
    install(context(set_root, agent), Install(), yes)
    assert os.readlink(agent / "extensions/notify.ts") == str(set_root / "extensions/notify.ts")


def test_a_dangling_symlink_as_the_agent_dir_says_so(tmp_path: Path, set_root: Path) -> None:
    agent = build_tree(tmp_path, {"agent": tmp_path / "gone"}) / "agent"
    with pytest.raises(ExtError) as err:
        resolve(Env(environ=dict(os.environ), cwd=tmp_path), set_root, agent, create=True)
    assert "dangling symlink" in err.value.message
    assert os.readlink(agent) == str(tmp_path / "gone")
    assert not (tmp_path / "gone").exists()


# an agent dir ext may not write to


def _deny(monkeypatch: pytest.MonkeyPatch, name: str, under: Path) -> None:
    """Make os.<name> fail with EACCES for paths under `under`, as a read-only folder would."""
    real = getattr(os, name)

    def denied(*args: object, **kw: object) -> object:
        paths = [str(a) for a in args if isinstance(a, str | os.PathLike)]
        if any(p.startswith(str(under)) for p in paths[-1:]):
            raise PermissionError(errno.EACCES, "Permission denied", paths[-1])
        return real(*args, **kw)

    monkeypatch.setattr(os, name, denied)


def test_an_agent_dir_without_write_permission_is_exit_1_naming_the_fix(
    monkeypatch: pytest.MonkeyPatch, set_root: Path, agent: Path
) -> None:
    before = snapshot(agent)
    _deny(monkeypatch, "mkdir", agent)
    err = refused(ExitCode.FAILED, set_root, agent)
    assert "Permission denied" in err.message
    assert str(agent) in err.message
    assert "write access" in (err.fix or "")
    assert snapshot(agent) == before


def test_a_resource_folder_without_write_permission_rolls_back_the_backup(
    monkeypatch: pytest.MonkeyPatch, set_root: Path, agent: Path
) -> None:
    before = {k: v for k, v in snapshot(agent).items() if not k.startswith(".extset")}
    _deny(monkeypatch, "symlink", agent / "extensions")
    err = refused(ExitCode.FAILED, set_root, agent)
    assert "Permission denied" in err.message
    assert "rolled back" in err.message
    assert "write access" in (err.fix or "")
    after = {k: v for k, v in snapshot(agent).items() if not k.startswith(".extset")}
    assert after == before


def _open_to_others(folder: Path) -> bool:
    """Whether every folder on the way to `folder` lets other users through (o+x)."""
    return all(os.stat(p).st_mode & 0o001 for p in (folder, *folder.parents))


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A folder another user can reach (pytest's tmp_path is private to root)."""
    places = [Path(tempfile.gettempdir()), Path("/tmp"), Path("/var/tmp")]
    reachable = [p for p in places if p.is_dir() and _open_to_others(p)]
    if not reachable:
        pytest.skip("no temporary folder that another user can reach")
    base = Path(tempfile.mkdtemp(prefix="extset-perm-", dir=reachable[0]))
    os.chmod(base, 0o755)  # noqa: S103 - the other user must reach it
    try:
        yield base
    finally:
        for dirpath, dirnames, _ in os.walk(base):
            for d in dirnames:
                os.chmod(Path(dirpath, d), 0o755, follow_symlinks=False)  # noqa: S103 - to remove
        shutil.rmtree(base)


def _ext_for(as_user: list[str], shared: Path) -> list[str]:
    """A command line that runs ext as that user: this clone's ext if the user can reach it,
    else a copy of the installer package in `shared` run by a Python the user can run.

    A clone in a 0700 home (as many distributions make it) is out of the other user's reach.
    The everyday `install` needs no third-party package, so the package alone is enough.
    """
    if not as_user or _runs([*as_user, str(EXT), "--version"]):
        return [str(EXT)]
    lib = shared / "lib"
    package = Path(__file__).resolve().parents[2] / "installer"
    shutil.copytree(package, lib / "installer", ignore=shutil.ignore_patterns("__pycache__"))
    for path in (lib, *lib.rglob("*")):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    boot = f"import sys; sys.path.insert(0, {str(lib)!r}); "
    boot += "from installer.cli.entry import main; main()"
    for python in dict.fromkeys([sys.executable, shutil.which("python3"), "/usr/bin/python3"]):
        if python and _runs([*as_user, python, "-c", boot, "--version"]):
            return [python, "-c", boot]
    pytest.skip(
        f"uid 65534 can neither run {EXT} nor a Python >= 3.11 with a copy of installer/: "
        "a folder on the way is closed to other users (a 0700 home?)"
    )


def _runs(command: list[str]) -> bool:
    done = subprocess.run(command, capture_output=True, timeout=60, check=False)
    return done.returncode == 0


def test_a_read_only_agent_dir_for_real(shared_tmp: Path) -> None:
    """chmod 0555, run by a user it binds (root ignores modes: run ext as nobody then)."""
    as_user: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root and setpriv is missing: no way to run as another user")
        as_user = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    ext = _ext_for(as_user, shared_tmp)
    set_root = build_tree(shared_tmp / "set", dict(SET))
    agent = build_tree(shared_tmp / "agent", {"extensions/notify.ts": "mine\n"})
    home = shared_tmp / "home"
    home.mkdir()
    for path in (set_root, *set_root.rglob("*")):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    os.chmod(agent / "extensions/notify.ts", 0o644)
    os.chmod(agent / "extensions", 0o555)  # noqa: S103 - read-only is the point
    os.chmod(agent, 0o555)  # noqa: S103 - read-only is the point
    if as_user:
        os.chown(home, 65534, 65534)
    before = snapshot(agent)
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "NO_COLOR": "1"}
    env["EXT_NO_UPDATE_CHECK"] = "1"
    proc = subprocess.run(
        [*as_user, *ext, "--set", str(set_root), "--agent-dir", str(agent), "install", "--yes"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "Permission denied" in proc.stderr
    assert "fix:" in proc.stderr
    assert snapshot(agent) == before


@pytest.mark.parametrize("where", ["agent/extensions", "project/.vscode/extensions/x/lib"])
def test_a_folder_named_like_a_resource_folder_is_no_set_s_by_that_alone(
    tmp_path: Path, agent: Path, where: str
) -> None:
    """Review (helper-22): `--set ~/.pi/agent/extensions` was told to point --set at
    ~/.pi/agent (an agent dir, not a set), and a folder deep in .vscode/extensions at .vscode."""
    build_tree(tmp_path / "agent", {"settings.json": "{}\n"})
    folder = build_tree(tmp_path / where, {"README.md": "hi\n"})
    with pytest.raises(ExtError) as err:
        context(folder, agent)
    assert "inside the set" not in err.value.message
    assert (err.value.fix or "").startswith("create one with `ext init")


def test_a_set_with_no_items_is_said_by_list_and_install(tmp_path: Path, agent: Path) -> None:
    """A trial: a folder with only an extset.toml listed a header and nothing, and an install
    planned ext's own /ext alone, with no word: a set named by mistake looked installed."""
    from click.testing import CliRunner

    from installer.cli.app import app

    empty = build_tree(tmp_path / "empty", {"extset.toml": '[set]\nname = "c"\n'})
    at = ["--set", str(empty), "--agent-dir", str(agent)]
    env = {"NO_COLOR": "1", "EXT_NO_UPDATE_CHECK": "1"}
    listed = CliRunner().invoke(app, [*at, "list"], env=env)
    assert listed.stdout.splitlines()[-1] == (
        f"  (no items: no extension, skill, prompt or theme in {empty})"
    )
    planned = CliRunner().invoke(app, [*at, "install", "--dry-run"], env=env)
    assert f"warning: the set has no items: no extension, skill, prompt or theme in {empty}" in (
        planned.stderr
    )


def test_a_pi_package_whose_manifest_names_none_of_its_folders_is_told_the_edit(
    tmp_path: Path, agent: Path
) -> None:
    """A trial (helper-37): `"pi": {}` on pi 0.73 names nothing, so pi loads none of
    extensions/; list and install said to check --set, while doctor named the edit."""
    from click.testing import CliRunner

    from installer.cli.app import app

    package = '{"name": "pkgx", "pi": {"prompts": ["./prompts"]}}'
    root = build_tree(tmp_path / "pkg", {"package.json": package, "extensions/a.ts": "// a\n"})
    at = ["--set", str(root), "--agent-dir", str(agent)]
    env = {"NO_COLOR": "1", "EXT_NO_UPDATE_CHECK": "1"}
    edit = (
        "package.json's `pi` manifest names none of extensions/, so pi loads none of it: add "
        '"extensions": ["./extensions"] to "pi" in package.json'
    )
    listed = CliRunner().invoke(app, [*at, "list"], env=env)
    assert listed.stdout.splitlines()[-1] == f"  (no items: {edit})"
    planned = CliRunner().invoke(app, [*at, "install", "--dry-run"], env=env)
    assert f"warning: the set has no items pi loads: {edit}" in planned.stderr


def test_an_install_says_which_links_of_the_set_lead_nowhere(tmp_path: Path, agent: Path) -> None:
    """Session 49: a link of the set that loops or whose target is gone was left out of an
    install without a word, while `ext doctor` called it an error; pi skips it too. The plan
    now says it, with doctor's fix, and installs the rest."""
    root = build_tree(tmp_path / "set", SET)
    (root / "extensions/loop.ts").symlink_to("loop.ts")
    (root / "prompts").mkdir()
    (root / "prompts/gone.md").symlink_to("../drafts/gone.md")
    result = install(context(root, agent), Install(), yes)
    assert [w for w in result.plan.warnings if " in the set is a link" in w] == [
        "extensions/loop.ts in the set is a link that leads back to itself (a loop): not "
        f"installed, pi cannot load it (remove the link, or point it at the item: rm "
        f"{root}/extensions/loop.ts)",
        "prompts/gone.md in the set is a link to ../drafts/gone.md, which does not exist: not "
        f"installed, pi cannot load it (restore its target, or remove the link: rm "
        f"{root}/prompts/gone.md)",
    ]
    assert (agent / "extensions/notify.ts").is_symlink()
    assert not os.path.lexists(agent / "extensions/loop.ts")


def test_a_resource_folder_linked_into_the_set_is_made_real_and_empty_not_a_copy(
    tmp_path: Path, set_root: Path
) -> None:
    """Review: a hand-made install's `agent/extensions -> set/extensions` got the fix that
    copies what the link leads to: here, the set itself, which the next install then backed
    up item by item. Into the set, the fix is an empty real folder (ext fills it)."""
    agent = tmp_path / "agent"
    agent.mkdir()
    (agent / "extensions").symlink_to(set_root / "extensions")
    err = refused(ExitCode.FAILED, set_root, agent)
    assert err.fix == (
        f"replace it with a real folder: rm {agent / 'extensions'} && "
        f"mkdir {agent / 'extensions'}, then run ext again"
    )


@pytest.mark.parametrize("agent_kind", ["pi's own", "ext's records"])
def test_a_folder_inside_an_agent_dir_is_said_as_one(
    tmp_path: Path, isolated_home: Path, agent: Path, agent_kind: str
) -> None:
    """A trial (helper-23): in ~/.pi/agent/extensions (no settings.json yet) `--set .` was
    told to point at ~/.pi/agent; in an installed agent dir's extensions/, to `ext init` it."""
    if agent_kind == "pi's own":
        folder = build_tree(isolated_home / ".pi/agent/extensions", {"x.ts": "export {}\n"})
        where = isolated_home / ".pi/agent"
    else:
        where = build_tree(tmp_path / "other-agent", {".extset/state.json": "{}\n"})
        folder = build_tree(where / "skills", {"README.md": "hi\n"})
    with pytest.raises(ExtError) as err:
        context(folder, agent)
    assert err.value.message == (
        f"{folder} is in the agent dir {where}, not a set: ext installs from a set into it"
    )
    assert (
        err.value.fix
        == "point --set at your set's folder (the one with your extensions/, skills/…)"
    )


def test_an_agent_dir_named_as_the_set_is_refused(
    tmp_path: Path, isolated_home: Path, agent: Path
) -> None:
    """A trial (helper-23): `--set ~/.pi/agent` took pi's agent dir for a set (it has an
    extensions/), and said its extensions/ was inside the set."""
    pi_dir = build_tree(isolated_home / ".pi/agent", {"extensions/x.ts": "export {}\n"})
    with pytest.raises(ExtError) as err:
        context(pi_dir, agent)
    assert (
        err.value.message == f"{pi_dir} is an agent dir, not a set: ext installs from a set into it"
    )


def test_a_pi_package_json_that_is_not_json_stops_a_set_named_by_extset_toml(
    tmp_path: Path, agent: Path
) -> None:
    """A trial (helper-32): a comma too many in package.json, in a set that has an extset.toml
    too, made ext read the set as conventional, with no items: `ext list` said every item
    stale and `ext install --yes` pruned all eight, exit 0."""
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "pkg"\n',
            "package.json": '{"name": "pkg", "pi": {"extensions": ["./src/a.ts"]}}',
            "src/a.ts": "export default function a() {}\n",
        },
    )
    install(context(root, agent), Install(), yes)
    assert (agent / "extensions/a.ts").is_symlink()
    (root / "package.json").write_text('{"name": "pkg", "pi": {"extensions": ["./src/a.ts",]}}')

    err = refused(ExitCode.USAGE, root, agent)

    assert err.message.startswith(f"{root}/package.json is not valid JSON (")
    assert err.fix == "fix its JSON"
    assert (agent / "extensions/a.ts").is_symlink()


def test_the_rm_of_a_broken_link_under_home_pastes_as_one_word(
    isolated_home: Path, tmp_path: Path
) -> None:
    """helper-33: the rm was quoted, then shortened to `~/` inside the quotes ('~/my sets/…'),
    which a shell does not expand."""
    from click.testing import CliRunner

    from installer.cli.app import app

    root = build_tree(isolated_home / "my sets" / "s1", dict(SET))
    (root / "extensions/broke.ts").symlink_to("gone.ts")
    agent = tmp_path / "agent"
    agent.mkdir()
    done = CliRunner().invoke(
        app,
        ["--set", str(root), "--agent-dir", str(agent), "install", "--dry-run"],
        env={"NO_COLOR": "1", "EXT_NO_UPDATE_CHECK": "1", "HOME": str(isolated_home)},
    )
    said = unwrapped(done.stderr)
    assert "remove the link: rm ~/'my sets/s1/extensions/broke.ts')" in said, said


@pytest.mark.parametrize("entry", ["extensions/a.ts.off/index.ts", "skills/notes.md.off/SKILL.md"])
def test_an_item_named_as_a_switched_off_link_is_refused(
    set_root: Path, agent: Path, entry: str
) -> None:
    """helper-82: a folder `extensions/a.ts.off` of the set took the place of a.ts's link
    switched off: each install relinked it one way or the other (never a no-op), pi loaded it
    every other run, and `disable a` was refused as a link in the way."""
    from installer.sets.resources import discover

    build_tree(set_root, {entry: "export default function () {}\n"})
    with pytest.raises(UsageError) as err:
        discover(set_root)
    folder, name, _ = entry.split("/")
    kind = folder.removesuffix("s")
    assert err.value.message.startswith(f"{kind} name {name!r} ends with '.off'")
    assert err.value.fix == f"rename {set_root}/{folder}/{name} to a name without '.off'"
    before = snapshot(agent)
    refused(ExitCode.USAGE, set_root, agent)
    assert snapshot(agent) == before


def test_a_folder_item_named_with_off_takes_no_ones_place(set_root: Path, agent: Path) -> None:
    """helper-83: folders park in `.off/`, so a skill `helper.off` collides with nothing; it
    was refused all the same."""
    from installer.sets.resources import discover

    build_tree(set_root, {"skills/helper.off/SKILL.md": "---\nname: helper.off\n---\n"})
    assert "helper.off" in {r.name for r in discover(set_root)}
