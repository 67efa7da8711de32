"""Which set and which agent dir a command works on, in DESIGN.md's order."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from installer.ground.bundled_copy import stable_copy
from installer.ground.context import Env, bundled_set, resolve, without_dotdot
from installer.ground.errors import AgentDirMissing, ExitCode, UsageError
from tests.helpers import build_tree, snapshot

REPO = Path(__file__).resolve().parents[2]


def env(cwd: Path, **environ: str) -> Env:
    return Env(environ={**os.environ, **environ}, cwd=cwd)


def a_set(root: Path, name: str, extra: str = "") -> Path:
    return build_tree(
        root,
        {"extset.toml": f'[set]\nname = "{name}"\n{extra}', "extensions/a.ts": "// a\n"},
    )


@pytest.fixture
def sets(tmp_path: Path) -> dict[str, Path]:
    return {
        "flag": a_set(tmp_path / "flag", "flag"),
        "env": a_set(tmp_path / "env", "env"),
        "cwd": a_set(tmp_path / "cwd", "cwd"),
    }


def test_set_flag_beats_ext_set_beats_cwd(tmp_path: Path, sets: dict[str, Path]) -> None:
    inside = sets["cwd"] / "extensions"
    e = env(inside, EXT_SET=str(sets["env"]))
    agent = tmp_path
    assert (
        resolve(e, sets["flag"], agent).set_root,
        resolve(e, sets["flag"], agent).set_source,
    ) == (
        sets["flag"],
        "--set",
    )
    ctx = resolve(e, None, agent)
    assert (ctx.set_root, ctx.set_source, ctx.manifest.name) == (sets["env"], "EXT_SET", "env")
    ctx = resolve(env(inside), None, agent)
    assert (ctx.set_root, ctx.set_source, ctx.manifest.name) == (sets["cwd"], "cwd", "cwd")


def test_a_manifest_linked_in_from_another_folder_names_that_folder(tmp_path: Path) -> None:
    """A trial (helper-41): stow linked extset.toml into ~/.pi/agent with the set's items;
    `ext list` there took the agent dir for the set. It names the set the link leads to."""
    real = a_set(tmp_path / "dotfiles" / "pi set", "mine")
    farm = build_tree(tmp_path / "agent", {"extensions/a.ts": real / "extensions/a.ts"})
    (farm / "extset.toml").symlink_to(os.path.relpath(real / "extset.toml", farm))

    with pytest.raises(UsageError) as refused:
        resolve(env(farm / "extensions"), None, tmp_path / "elsewhere")

    assert refused.value.message == (
        f"{farm}/extset.toml is a link to {real}/extset.toml: the set is {real}, not {farm}"
    )
    assert refused.value.fix is not None
    assert refused.value.fix.startswith(f"run ext there (cd '{real}'), or pass --set '{real}'; ")
    # named with --set or EXT_SET, the same (helper-43)
    for named, environ in ((farm, {}), (None, {"EXT_SET": str(farm)})):
        with pytest.raises(UsageError, match="the set is "):
            resolve(env(tmp_path, **environ), named, tmp_path / "elsewhere")
    # a manifest linked from its own folder, or a set reached through a linked folder: fine
    (real / "extset.toml").rename(real / "real.toml")
    (real / "extset.toml").symlink_to("real.toml")
    assert resolve(env(real), None, tmp_path).set_root == real
    (tmp_path / "via").symlink_to(real)
    assert resolve(env(tmp_path / "via"), None, tmp_path).set_root == real


def test_without_any_set_nearby_the_bundled_set_is_used(tmp_path: Path) -> None:
    ctx = resolve(env(tmp_path), None, tmp_path)
    assert ctx.set_source == "bundled"
    assert ctx.set_root == REPO  # an editable install: the checkout is the bundled set
    assert (ctx.set_root / "extensions").is_dir()


def test_a_set_without_a_manifest_but_with_extensions_is_a_set(tmp_path: Path) -> None:
    bare = build_tree(tmp_path / "bare", {"extensions/a.ts": "// a\n"})
    ctx = resolve(env(tmp_path), bare, tmp_path)
    assert (ctx.set_root, ctx.manifest.name, ctx.manifest.path) == (bare, "bare", None)


@pytest.mark.parametrize("what", ["missing", "file", "empty"])
def test_a_set_that_is_not_one_is_exit_2(tmp_path: Path, what: str) -> None:
    path = tmp_path / "notaset"
    if what == "file":
        path.write_text("x\n")
    elif what == "empty":
        build_tree(path, {"README.md": "hi\n"})
    with pytest.raises(UsageError) as err:
        resolve(env(tmp_path), path, tmp_path)
    assert err.value.exit_code == ExitCode.USAGE
    assert err.value.fix
    with pytest.raises(UsageError):
        resolve(env(tmp_path, EXT_SET=str(path)), None, tmp_path)


def test_agent_dir_flag_beats_env_beats_pi_env_beats_manifest_beats_isolated(
    tmp_path: Path, isolated_home: Path
) -> None:
    root = a_set(tmp_path / "s", "s", '[target]\nagent_dir = "from-manifest"\n')
    for d in ("flag", "env", "s/from-manifest"):
        (tmp_path / d).mkdir()
    e = env(tmp_path, EXT_AGENT_DIR=str(tmp_path / "env"))
    found = resolve(e, root, tmp_path / "flag")
    assert (found.agent_dir, found.agent_dir_source) == (tmp_path / "flag", "--agent-dir")
    found = resolve(e, root, None)
    assert (found.agent_dir, found.agent_dir_source) == (tmp_path / "env", "EXT_AGENT_DIR")
    (tmp_path / "pi-env").mkdir()
    both = env(tmp_path, EXT_AGENT_DIR=str(tmp_path / "env"), PI_CODING_AGENT_DIR="pi-env")
    found = resolve(both, root, None)
    assert (found.agent_dir, found.agent_dir_source) == (tmp_path / "env", "EXT_AGENT_DIR")
    found = resolve(env(tmp_path, PI_CODING_AGENT_DIR=str(tmp_path / "pi-env")), root, None)
    assert (found.agent_dir, found.agent_dir_source) == (
        tmp_path / "pi-env",
        "PI_CODING_AGENT_DIR",
    )
    found = resolve(env(tmp_path), root, None)
    assert (found.agent_dir, found.agent_dir_source) == (
        root / "from-manifest",
        "[target] agent_dir",
    )
    plain = a_set(tmp_path / "plain", "plain")
    found = resolve(env(tmp_path), plain, None)
    assert found.agent_dir_source == "isolated"
    assert found.agent_dir == isolated_home / ".local/share/extset/agent"


def test_the_isolated_agent_dir_is_made_on_demand_by_install(
    tmp_path: Path, isolated_home: Path
) -> None:
    from installer.commands.install import Install, install

    root = a_set(tmp_path / "s", "s")
    ctx = resolve(env(tmp_path), root, None)
    assert not ctx.agent_dir.exists()
    install(ctx, Install(dry_run=True), lambda plan, diffs: None)
    assert not ctx.agent_dir.exists(), "a dry run made the isolated dir"
    install(ctx, Install(), lambda plan, diffs: None)
    assert os.readlink(ctx.agent_dir / "extensions/a.ts") == str(root / "extensions/a.ts")


def test_a_relative_agent_dir_is_taken_from_the_cwd_of_the_env(tmp_path: Path) -> None:
    root = a_set(tmp_path / "s", "s")
    work = tmp_path / "work"
    (work / "agent").mkdir(parents=True)
    ctx = resolve(env(work), root, Path("agent"))
    assert ctx.agent_dir == work / "agent"


def test_an_agent_dir_typed_with_dotdot_is_named_without_it_everywhere(tmp_path: Path) -> None:
    """`--agent-dir ../agent` in the set's folder was kept as `<set>/../agent`: the /ext link
    and ext's record of the dirs it installed into went through the set's folder, and both
    broke when it moved."""
    root = a_set(tmp_path / "myset", "myset")
    (tmp_path / "agent").mkdir()
    ctx = resolve(env(root), None, Path("../agent"))
    assert ctx.agent_dir == tmp_path / "agent"

    done = subprocess.run(
        [str(Path(sys.executable).with_name("ext")), "--agent-dir", "../agent", "install", "--yes"],
        cwd=root, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert "/../" not in done.stderr, done.stderr  # the agent dir it names, too
    link = os.readlink(tmp_path / "agent" / "extensions" / "ext-command.ts")
    assert link.startswith(str(tmp_path / "agent" / ".extset")), link
    from installer.ground.installs import record_path

    assert str(tmp_path / "agent") in record_path().read_text()
    assert "/../" not in record_path().read_text()


# A tree of folders and links, and paths through it with `..` anywhere: the path without
# them names what the path names (the kernel's answer), and keeps each link it does not
# have to go through.
TREE = ("a", "a/b", "a/b/c", "d", "d/e")
LINKS = {"a/up": "..", "l": "a/b/c", "d/to-b": "../a/b", "loop-free": "d/e"}


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.sampled_from([*"abcde", "up", "l", "to-b", ".."]), max_size=8))
def test_without_dotdot_names_what_the_kernel_names(tmp_path: Path, parts: list[str]) -> None:
    base = tmp_path / "tree"
    if not base.exists():
        for folder in TREE:
            (base / folder).mkdir(parents=True)
        for name, target in LINKS.items():
            (base / name).symlink_to(target)
    path = base.joinpath(*parts)
    got = without_dotdot(path)
    assert ".." not in got.parts
    if os.path.exists(path):
        assert os.path.realpath(got) == os.path.realpath(path)
    if ".." not in parts:
        assert got == path  # nothing to take out: as typed, links and all


@pytest.mark.parametrize("source", ["--agent-dir", "EXT_AGENT_DIR", "[target] agent_dir"])
def test_a_named_agent_dir_that_does_not_exist_is_exit_4_with_the_fix(
    tmp_path: Path, source: str
) -> None:
    missing = tmp_path / "missing"
    extra = f'[target]\nagent_dir = "{missing}"\n' if source == "[target] agent_dir" else ""
    root = a_set(tmp_path / "s", "s", extra)
    environ = {"EXT_AGENT_DIR": str(missing)} if source == "EXT_AGENT_DIR" else {}
    flag = missing if source == "--agent-dir" else None
    with pytest.raises(AgentDirMissing) as err:
        resolve(env(tmp_path, **environ), root, flag)
    assert err.value.exit_code == ExitCode.NO_AGENT_DIR
    assert f"({source})" in err.value.message
    # The plain command finds the dir the way this run did; --agent-dir must be repeated.
    named = f" --agent-dir {missing}" if source == "--agent-dir" else ""
    create = f"`ext --set {root}{named} install --create`"
    assert err.value.fix == (
        f"run {create}, or start pi once with PI_CODING_AGENT_DIR={missing} so it creates it"
    )
    assert not missing.exists()
    ctx = resolve(env(tmp_path, **environ), root, flag, create=True)
    assert ctx.agent_dir == missing
    assert missing.is_dir()


def test_create_makes_missing_parents_too(tmp_path: Path) -> None:
    root = a_set(tmp_path / "s", "s")
    deep = tmp_path / "a/b/agent"
    assert resolve(env(tmp_path), root, deep, create=True).agent_dir == deep
    assert deep.is_dir()


def test_an_agent_dir_that_is_a_file_is_exit_4_even_with_create(tmp_path: Path) -> None:
    root = a_set(tmp_path / "s", "s")
    path = build_tree(tmp_path, {"agent": "a file\n"}) / "agent"
    with pytest.raises(AgentDirMissing) as err:
        resolve(env(tmp_path), root, path, create=True)
    assert "is a file" in err.value.message
    assert path.read_text() == "a file\n"


@pytest.mark.parametrize(
    ("source", "fix"),
    [
        ("--agent-dir", "point --agent-dir at a folder"),
        ("PI_CODING_AGENT_DIR", "point PI_CODING_AGENT_DIR at a folder, or unset it"),
        ("EXT_AGENT_DIR", "point EXT_AGENT_DIR at a folder, or unset it"),
    ],
)
@pytest.mark.parametrize("below", [False, True])
def test_a_file_where_the_agent_dir_would_be_names_what_named_it(
    tmp_path: Path, source: str, fix: str, below: bool
) -> None:
    """helper-77: a variable naming a file was fixed with `--agent-dir`, never typed; a dir
    below a file was offered `--create`, which then failed with "Not a directory"."""
    root = a_set(tmp_path / "s", "s")
    file = build_tree(tmp_path, {"afile": "a file\n"}) / "afile"
    path = file / "sub" if below else file
    flag = path if source == "--agent-dir" else None
    environ = {} if flag is not None else {source: str(path)}
    with pytest.raises(AgentDirMissing) as err:
        resolve(env(tmp_path, **environ), root, flag, create=True)
    said = f"cannot be made: {file} is a file" if below else "is a file, not a folder"
    assert (said in err.value.message, err.value.fix) == (True, fix)
    assert file.read_text() == "a file\n"


def test_an_agent_dir_reached_through_a_symlink_is_fine(tmp_path: Path) -> None:
    root = a_set(tmp_path / "s", "s")
    (tmp_path / "real-agent").mkdir()
    link = build_tree(tmp_path, {"agent": tmp_path / "real-agent"}) / "agent"
    assert resolve(env(tmp_path), root, link).agent_dir == link


# the bundled set, copied out of site-packages


def test_a_wheel_install_copies_its_bundled_set_to_a_stable_place(
    tmp_path: Path, isolated_home: Path
) -> None:
    site = tmp_path / "site-packages"  # not a checkout: no extset.toml beside `installer/`
    site.mkdir()
    prefix = tmp_path / "venv"
    shipped = a_set(prefix / "share/extset/bundled", "bundled")
    found = bundled_set(env(tmp_path), checkout=site, prefix=prefix)
    assert found == isolated_home / ".local/share/extset/bundled"
    assert snapshot(found) == snapshot(shipped)
    inode = found.stat().st_ino
    assert bundled_set(env(tmp_path), checkout=site, prefix=prefix) == found
    assert found.stat().st_ino == inode, "an unchanged set was copied again"
    build_tree(shipped, {"extensions/b.ts": "// b, new in the upgrade\n"})
    assert bundled_set(env(tmp_path), checkout=site, prefix=prefix) == found
    assert (found / "extensions/b.ts").read_text() == "// b, new in the upgrade\n"
    assert sorted(p.name for p in found.parent.iterdir()) == ["bundled"]


def test_no_bundled_set_anywhere_is_exit_2(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as err:
        bundled_set(env(tmp_path), checkout=tmp_path / "site", prefix=tmp_path / "venv")
    assert "--set" in (err.value.fix or "")


def test_stable_copy_drops_files_the_new_version_no_longer_has(tmp_path: Path) -> None:
    shipped = a_set(tmp_path / "v1", "x")
    stable = tmp_path / "data/bundled"
    stable_copy(shipped, stable)
    os.unlink(shipped / "extensions/a.ts")
    build_tree(shipped, {"extensions/c.ts": "// c\n"})
    stable_copy(shipped, stable)
    assert sorted(os.listdir(stable / "extensions")) == ["c.ts"]


def test_pi_coding_agent_dir_is_read_as_pi_reads_it(tmp_path: Path, isolated_home: Path) -> None:
    root = a_set(tmp_path / "s", "s", '[target]\nagent_dir = "from-manifest"\n')
    (isolated_home / "pi-dir").mkdir()
    (root / "from-manifest").mkdir()

    found = resolve(env(tmp_path, PI_CODING_AGENT_DIR="~/pi-dir"), root, None)

    assert (found.agent_dir, found.agent_dir_source) == (
        isolated_home / "pi-dir",
        "PI_CODING_AGENT_DIR",
    )


def test_pi_coding_agent_dir_s_dotdot_is_taken_as_pi_takes_it(tmp_path: Path) -> None:
    """helper-19's review: pi joins onto the variable as written, so `L/../x` is `./x` to pi
    whatever L links to; ext took the kernel's way (the link's parent) and named, and
    exported, another dir than the one pi reads. --agent-dir stays the kernel's way."""
    root = a_set(tmp_path / "s", "s")
    (tmp_path / "real" / "sub").mkdir(parents=True)
    (tmp_path / "real" / "x").mkdir()
    (tmp_path / "x").mkdir()
    (tmp_path / "L").symlink_to(tmp_path / "real" / "sub")
    typed = str(tmp_path / "L" / ".." / "x")
    assert resolve(env(tmp_path, PI_CODING_AGENT_DIR=typed), root, None).agent_dir == (
        tmp_path / "x"
    )
    assert resolve(env(tmp_path), root, Path(typed)).agent_dir == tmp_path / "real" / "x"


def test_a_link_loop_before_dotdot_is_no_crash(tmp_path: Path) -> None:
    """helper-19's review: `--agent-dir loop/..` was a traceback (Path.resolve's RuntimeError
    on a loop)."""
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    assert ".." not in without_dotdot(tmp_path / "loop" / ".." / "x").parts


def test_pi_coding_agent_dir_that_does_not_exist_is_exit_4(tmp_path: Path) -> None:
    root = a_set(tmp_path / "s", "s")
    with pytest.raises(AgentDirMissing) as err:
        resolve(env(tmp_path, PI_CODING_AGENT_DIR=str(tmp_path / "gone")), root, None)
    assert "PI_CODING_AGENT_DIR" in err.value.message
    assert err.value.exit_code == ExitCode.NO_AGENT_DIR
    assert err.value.fix == (
        f"start pi once so it creates it, or run `ext --set {root} install --create`"
    )


def test_the_fix_for_a_missing_agent_dir_names_the_set_and_a_path_under_home_as_typed(
    tmp_path: Path, isolated_home: Path
) -> None:
    root = a_set(tmp_path / "s", "s")
    with pytest.raises(AgentDirMissing) as err:
        resolve(env(tmp_path), root, isolated_home / "my agent")
    assert err.value.fix == (
        f"run `ext --set {root} --agent-dir ~/'my agent' install --create`, "
        "or start pi once with PI_CODING_AGENT_DIR=~/'my agent' so it creates it"
    )
    with pytest.raises(AgentDirMissing) as err:
        resolve(env(tmp_path), root, isolated_home / ".pi/agent")
    assert err.value.fix == (
        f"start pi once so it creates it, or run `ext --set {root} --agent-dir ~/.pi/agent "
        "install --create`"
    )


def test_pi_coding_agent_dir_naming_the_isolated_dir_keeps_it_made_on_demand(
    tmp_path: Path, isolated_home: Path
) -> None:
    root = a_set(tmp_path / "s", "s")
    isolated = isolated_home / ".local/share/extset/agent"  # what `ext env` exported

    found = resolve(env(tmp_path, PI_CODING_AGENT_DIR=str(isolated)), root, None)

    assert (found.agent_dir, found.agent_dir_source) == (isolated, "isolated")
    assert not isolated.exists()


def test_a_pi_package_above_the_cwd_is_the_set_when_no_extset_toml_is(tmp_path: Path) -> None:
    pkg = build_tree(
        tmp_path / "pkg",
        {
            "package.json": '{"name": "pkg", "pi": {"extensions": ["./src/*.ts"]}}',
            "src/a.ts": "// a\n",
            "src/tab/package.json": '{"pi": {"extensions": ["./tab.ts"]}}',
            "src/tab/tab.ts": "// tab\n",
        },
    )
    ctx = resolve(env(pkg / "src"), None, tmp_path)
    assert (ctx.set_root, ctx.set_source) == (pkg.resolve(), "cwd")
    # An extset.toml further up still wins over a pi package nearer the cwd.
    outer = a_set(tmp_path / "outer", "outer")
    inner = build_tree(outer / "inner", {"package.json": '{"pi": {"skills": ["./s"]}}'})
    assert resolve(env(inner), None, tmp_path).set_root == outer.resolve()
    # A package.json without a pi manifest is no set: the bundled one is used.
    plain = build_tree(tmp_path / "plain", {"package.json": '{"name": "web-app"}'})
    assert resolve(env(plain), None, tmp_path).set_source == "bundled"


def test_a_broken_package_json_naming_pi_is_an_error_not_the_bundled_set(tmp_path: Path) -> None:
    """pi reads no manifest from it; the bundled set in its place, with --yes, would install
    what the person did not mean. A broken one that names no `pi` key is no set, as before."""
    pkg = build_tree(tmp_path / "pkg", {"package.json": '{"name": "x", "pi": {"extensions": ['})
    with pytest.raises(UsageError) as caught:
        resolve(env(pkg), None, tmp_path)
    assert caught.value.exit_code == ExitCode.USAGE
    assert f"{pkg / 'package.json'} is not valid JSON (Expecting value: line 1" in str(caught.value)
    assert caught.value.fix == "fix its JSON, or name the set with --set"
    web = build_tree(tmp_path / "web", {"package.json": '{"name": "web-app",'})
    assert resolve(env(web), None, tmp_path).set_source == "bundled"
    nan = build_tree(tmp_path / "nan", {"package.json": '{"pi": {"extensions": []}, "x": NaN}'})
    with pytest.raises(UsageError, match="NaN is not JSON"):  # Python reads it; pi does not
        resolve(env(nan), None, tmp_path)


@pytest.mark.parametrize(
    "named", ["~", "/", "/proc/self/cwd", "here", "../here-too", "here/..", "here/../x"]
)
def test_an_agent_dir_that_cannot_be_one_is_refused_whoever_names_it(
    tmp_path: Path, isolated_home: Path, named: str
) -> None:
    """helper-57: a set's `[target] agent_dir = "~"` made install spread extensions/, skills/
    and settings.json into the home folder; "/proc/self/cwd" named wherever ext ran;
    helper-59: so did a link to it in the set (`here`), or a link to that link."""
    (tmp_path / "set").mkdir()
    os.symlink("/proc/self/cwd", tmp_path / "set/here")
    os.symlink(tmp_path / "set/here", tmp_path / "here-too")
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": f'[set]\nname = "s"\n[target]\nagent_dir = "{named}"\n',
            "prompts/p.md": "p",
        },
    )
    env = Env(environ={**os.environ, "HOME": str(isolated_home)}, cwd=tmp_path)

    with pytest.raises(UsageError) as caught:
        resolve(env, root)

    assert "an agent dir is a folder of its own" in caught.value.message
    assert "[target] agent_dir" in caught.value.message
    assert not (isolated_home / "prompts").exists()


def test_an_agent_dir_on_dev_shm_is_a_folder_like_another() -> None:
    """helper-59: /dev/shm is a tmpfs CI uses, not the kernel's devices."""
    from installer.ground.context import _through_kernel

    assert not _through_kernel("/dev/shm/agent")
    assert _through_kernel("/dev/null/x") and _through_kernel("/proc/self/cwd/agent")
