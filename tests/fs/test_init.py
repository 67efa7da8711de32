"""`ext init`: plans every file, never overwrites, and leaves nothing behind when it fails."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from installer.commands.init import from_install_sh, start_set
from installer.engine.plan import Plan
from installer.ground.errors import ExtError, Refused, UsageError
from installer.ground.manifest import load_manifest
from installer.host.pi import HostInfo
from tests.helpers import build_tree, snapshot, yes

PACKAGE = "@mariozechner/pi-coding-agent"
GIT = shutil.which("git")


def _no(plan: Plan, diffs: tuple[str, ...]) -> None:
    raise Refused("declined; nothing was written")


@pytest.fixture
def host(tmp_path: Path) -> HostInfo:
    """A pi installed the way npm lays it out: bin link -> <package>/dist/cli.js."""
    pkg = tmp_path / "nm" / "node_modules" / PACKAGE
    build_tree(
        pkg,
        {
            "package.json": json.dumps(
                {"name": PACKAGE, "version": "0.73.1", "bin": {"pi": "dist/cli.js"}}
            ),
            "dist/cli.js": "#!/usr/bin/env node\n",
        },
    )
    cli = pkg / "dist" / "cli.js"
    return HostInfo("pi", cli, cli, "0.73.1", PACKAGE, "@mariozechner", "package.json")


def _files(root: Path) -> set[str]:
    return {k for k in snapshot(root) if not k.startswith(".git/")}


def test_init_makes_a_complete_set(tmp_path: Path, host: HostInfo) -> None:
    root = tmp_path / "myset"
    result = start_set(root, None, True, False, yes, host, GIT)
    assert result.applied
    assert {"extset.toml", "extensions", "extensions/myset-hello.ts", "README.md", ".gitignore",
            "tsconfig.json"} <= _files(root)  # fmt: skip
    manifest = load_manifest(root)
    assert manifest.name == "myset"
    assert manifest.host_tested == ">=0.73.0 <0.74.0"
    assert manifest.warnings == ()
    tsconfig = json.loads((root / "tsconfig.json").read_text())
    pkg = tmp_path / "nm" / "node_modules" / PACKAGE
    assert tsconfig["compilerOptions"]["paths"] == {PACKAGE: [str(pkg)]}
    hello = (root / "extensions" / "myset-hello.ts").read_text()
    assert f'import type {{ ExtensionAPI }} from "{PACKAGE}"' in hello
    assert '"myset-hello"' in hello
    if GIT:
        assert (root / ".git").is_dir()


def test_a_folder_named_with_dotdot_is_made_and_shown_without_it(
    tmp_path: Path, host: HostInfo
) -> None:
    """A trial: `ext init ../newset` showed `~/proj/sub/../newset` on every line, `next: cd`
    included; `nosuch/../set2` planned it all, then failed making `nosuch/..`."""
    for typed, made in ((tmp_path / "sub" / ".." / "newset", tmp_path / "newset"),
                        (tmp_path / "nosuch" / ".." / "set2", tmp_path / "set2")):  # fmt: skip
        (tmp_path / "sub").mkdir(exist_ok=True)
        result = start_set(typed, None, False, False, yes, host, None)
        assert result.applied and (made / "extset.toml").is_file()
        assert all(".." not in str(a.path) for a in result.plan.actions), result.plan.actions
        assert all(".." not in note for note in result.notes), result.notes  # `next: cd …`
        assert not (tmp_path / "nosuch").exists()


def test_the_plan_lists_every_file_before_writing(tmp_path: Path, host: HostInfo) -> None:
    root = tmp_path / "myset"
    seen: list[Plan] = []

    def look(plan: Plan, diffs: tuple[str, ...]) -> None:
        seen.append(plan)
        assert not root.exists()  # nothing written while the plan is on screen

    start_set(root, "named", False, False, look, host, GIT)
    planned = {Path(a.path).relative_to(root).as_posix() for a in seen[0].changes}
    assert planned == {".", "extset.toml", "extensions", "extensions/named-hello.ts", "README.md",
                       ".gitignore", "tsconfig.json"}  # fmt: skip
    assert _files(root) == planned - {"."}
    assert load_manifest(root).name == "named"


def test_dry_run_and_a_refusal_write_nothing(tmp_path: Path, host: HostInfo) -> None:
    root = tmp_path / "myset"
    result = start_set(root, None, True, True, yes, host, GIT)
    assert result.dry_run and result.changed
    assert not root.exists()
    with pytest.raises(Refused):
        start_set(root, None, True, False, _no, host, GIT)
    assert not root.exists()


def test_init_into_a_non_empty_folder_overwrites_nothing(tmp_path: Path, host: HostInfo) -> None:
    root = build_tree(
        tmp_path / "repo",
        {
            "README.md": "# my own readme\n",
            "extset.toml": '[set]\nname = "mine"\n',
            "extensions/notify.ts": "// mine\n",
            "notes.txt": "keep me",
        },
    )
    before = snapshot(root)
    result = start_set(root, None, False, False, yes, host, GIT)
    after = snapshot(root)
    assert {k: v for k, v in after.items() if k in before} == before
    skipped = {Path(a.path).name for a in result.plan.actions if a.action == "skip"}
    assert {"README.md", "extset.toml", "extensions"} <= skipped
    warnings = "\n".join(result.plan.warnings)
    assert "README.md exists: left alone" in warnings
    assert "no example added" in warnings  # extensions/ already holds the user's own
    assert set(after) - set(before) == {".gitignore", "tsconfig.json"}


def test_init_twice_has_nothing_to_do(tmp_path: Path, host: HostInfo) -> None:
    root = tmp_path / "myset"
    start_set(root, None, False, False, yes, host, GIT)
    before = snapshot(root)
    again = start_set(root, None, False, False, _no, host, GIT)  # a prompt would refuse
    assert again.plan.is_empty
    assert snapshot(root) == before


@pytest.mark.parametrize("nth", [1, 2, 4])  # of 4 files: first, middle, last
def test_a_failure_half_way_leaves_the_folder_as_it_was(
    tmp_path: Path, host: HostInfo, monkeypatch: pytest.MonkeyPatch, nth: int
) -> None:
    root = build_tree(tmp_path / "repo", {"README.md": "mine", "extensions/": None})
    before = snapshot(tmp_path / "repo")
    real = os.open
    calls = {"n": 0}

    def failing_open(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        if flags & os.O_EXCL:
            calls["n"] += 1
            if calls["n"] == nth:
                raise OSError(28, "No space left on device", str(path))
        return real(path, flags, *args, **kw)

    monkeypatch.setattr(os, "open", failing_open)
    with pytest.raises(ExtError, match=r"No space left on device.*removed"):
        start_set(root, None, False, False, yes, host, GIT)
    assert snapshot(tmp_path / "repo") == before


def test_a_failure_in_a_new_folder_removes_the_folder_too(
    tmp_path: Path, host: HostInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.open

    def failing_open(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        if flags & os.O_EXCL and str(path).endswith("tsconfig.json"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, *args, **kw)

    monkeypatch.setattr(os, "open", failing_open)
    with pytest.raises(ExtError, match="Permission denied"):
        start_set(tmp_path / "deep" / "myset", None, False, False, yes, host, GIT)
    assert not (tmp_path / "deep").exists()


def test_a_failing_git_init_removes_everything(tmp_path: Path, host: HostInfo) -> None:
    fake = tmp_path / "bin" / "git"
    build_tree(tmp_path / "bin", {"git": '#!/bin/sh\nmkdir -p "$3/.git"\necho boom >&2\nexit 1\n'})
    fake.chmod(0o755)
    root = tmp_path / "myset"
    with pytest.raises(ExtError, match="git init failed: boom"):
        start_set(root, None, True, False, yes, host, str(fake))
    assert not root.exists()


@pytest.mark.skipif(GIT is None, reason="git is not installed")
def test_no_git_init_inside_a_repository(tmp_path: Path, host: HostInfo) -> None:
    outer = tmp_path / "outer"
    outer.mkdir()
    subprocess.run([str(GIT), "init", "-q", str(outer)], check=True)
    result = start_set(outer / "myset", None, True, False, yes, host, GIT)
    assert not (outer / "myset" / ".git").exists()
    assert any("inside the git repository" in w for w in result.plan.warnings)
    result = start_set(tmp_path / "plain", None, False, False, yes, host, GIT)  # --no-git
    assert not (tmp_path / "plain" / ".git").exists()


def test_without_pi_it_says_so_and_writes_no_paths(tmp_path: Path) -> None:
    root = tmp_path / "myset"
    result = start_set(root, None, False, False, yes, None, None)
    assert any("pi was not found" in w for w in result.plan.warnings)
    tsconfig = json.loads((root / "tsconfig.json").read_text())
    assert "paths" not in tsconfig["compilerOptions"]
    assert load_manifest(root).host_tested is None
    assert PACKAGE in (root / "extensions" / "myset-hello.ts").read_text()


def test_a_file_where_the_folder_should_be_is_a_usage_error(tmp_path: Path) -> None:
    build_tree(tmp_path, {"taken": "a file"})
    with pytest.raises(UsageError, match="not a folder"):
        start_set(tmp_path / "taken", None, False, False, yes, None, None)


def test_the_home_folder_is_refused_as_a_set(host: HostInfo) -> None:
    """Every ext run under the home would take it for the set, and git init would make the
    home a repository: nothing is planned there."""
    home = Path(os.path.expanduser("~"))
    with pytest.raises(UsageError, match="is your home folder") as refused:
        start_set(home, None, True, False, yes, host, GIT)
    assert refused.value.fix == "make the set a folder of its own: ext init ~/my-extensions"
    assert not (home / "extset.toml").exists() and not (home / ".git").exists()


def test_next_says_no_cd_into_the_folder_it_ran_in(
    tmp_path: Path, host: HostInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "here"
    root.mkdir()
    monkeypatch.chdir(root)
    result = start_set(root, None, False, False, yes, host, None)
    assert result.notes[0].startswith("next: ext install")


def test_next_s_cd_works_pasted_for_a_folder_with_a_space(
    tmp_path: Path, host: HostInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = start_set(tmp_path / "my set", None, False, False, yes, host, None)
    assert result.notes[0].startswith(f"next: cd '{tmp_path}/my set' && ext install")


# ---- --from-install-sh --------------------------------------------------------------------


def _install_sh_repo(tmp_path: Path) -> Path:
    repo = build_tree(
        tmp_path / "pi-exts",
        {
            "install.sh": '#!/bin/sh\ntouch "$(dirname "$0")/RAN"\n',
            "extensions/ssh.ts": "// ssh\n",
            "extensions/tools/index.ts": "// tools\n",
            "README.md": "# my extensions\n",
        },
    )
    (repo / "install.sh").chmod(0o755)
    return repo


def test_from_install_sh_adds_only_the_manifest(
    tmp_path: Path, host: HostInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _install_sh_repo(tmp_path)
    before = snapshot(repo)
    script = repo / "install.sh"
    real_open = open

    def guarded_open(path: Any, *args: Any, **kw: Any) -> Any:
        assert Path(path) != script, "the install script must not be read"
        return real_open(path, *args, **kw)

    with monkeypatch.context() as patched:  # undoing only this patch keeps the test's own HOME
        patched.setattr("builtins.open", guarded_open)
        result = from_install_sh(script, None, False, yes, host)
    after = snapshot(repo)
    assert set(after) - set(before) == {"extset.toml"}
    assert {k: after[k] for k in before} == before
    assert not (repo / "RAN").exists()
    manifest = load_manifest(repo)
    assert manifest.name == "pi-exts"
    assert "install.sh" in (repo / "extset.toml").read_text()
    assert [a.action for a in result.plan.changes] == ["create"]


def test_from_install_sh_says_the_links_install_sh_made_only_when_there_are_some(
    tmp_path: Path, host: HostInfo
) -> None:
    repo = _install_sh_repo(tmp_path)
    pi_dir = build_tree(tmp_path / "pi-agent", {"extensions": None})
    none = from_install_sh(repo / "install.sh", None, False, yes, host, pi_dir)
    assert "no link into this repository is there yet" in none.notes[1]
    (repo / "extset.toml").unlink()
    for item in sorted(os.listdir(repo / "extensions"))[:2]:
        os.symlink(repo / "extensions" / item, pi_dir / "extensions" / item)
    two = from_install_sh(repo / "install.sh", None, False, yes, host, pi_dir)
    assert "the 2 links install.sh made there lead into this repository" in two.notes[1]


def test_from_install_sh_needs_resource_folders_beside_it(tmp_path: Path) -> None:
    build_tree(tmp_path / "r", {"install.sh": "#!/bin/sh\n", ".git/HEAD": ""})
    with pytest.raises(UsageError, match="no extensions/, skills/, prompts/ or themes/ folder"):
        from_install_sh(tmp_path / "r" / "install.sh", None, False, yes, None)
    with pytest.raises(UsageError, match="not a file"):
        from_install_sh(tmp_path / "r" / "missing.sh", None, False, yes, None)


def test_from_install_sh_takes_skills_alone_and_a_script_in_a_subfolder(tmp_path: Path) -> None:
    """A trial: a repository of skills and prompts only was refused (no extensions/), and so
    was one whose script is scripts/install.sh; the plan counted extensions/ alone."""
    skills = build_tree(
        tmp_path / "skills-only",
        {
            ".git/HEAD": "",
            "install.sh": "#!/bin/sh\n",
            "skills/pdf/SKILL.md": "---\nname: pdf\ndescription: PDF.\n---\n",
            "prompts/fix.md": "Fix.\n",
        },
    )
    result = from_install_sh(skills / "install.sh", None, False, yes, None)
    (made,) = result.plan.changes
    assert made.detail == "makes skills-only a set (1 in skills/, 1 in prompts/)"
    nested = build_tree(
        tmp_path / "nested",
        {".git/HEAD": "", "scripts/install.sh": "#!/bin/sh\n", "extensions/a.ts": ""},
    )
    result = from_install_sh(nested / "scripts/install.sh", None, False, yes, None)
    assert (nested / "extset.toml").is_file() and not (nested / "scripts/extset.toml").exists()


def test_from_install_sh_twice_leaves_the_manifest_alone(tmp_path: Path) -> None:
    repo = _install_sh_repo(tmp_path)
    (repo / "extset.toml").write_text('[set]\nname = "kept"\n')
    result = from_install_sh(repo / "install.sh", None, False, _no, None)
    assert result.plan.is_empty
    assert load_manifest(repo).name == "kept"


def test_a_write_cut_short_removes_the_half_file(
    tmp_path: Path, host: HostInfo, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.fdopen
    calls = {"n": 0}

    def failing_fdopen(fd: int, *args: Any, **kw: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            os.close(fd)
            raise OSError(5, "Input/output error")
        return real(fd, *args, **kw)

    monkeypatch.setattr(os, "fdopen", failing_fdopen)
    with pytest.raises(ExtError, match="Input/output error"):
        start_set(tmp_path / "myset", None, False, False, yes, host, GIT)
    assert not (tmp_path / "myset").exists()


# ---- the closing hint names adopt only when there is something to adopt --------------------


def _init_notes(tmp_path: Path, host: HostInfo, pi_dir: Path) -> tuple[str, ...]:
    from installer.commands.init import Init, init
    from installer.scaffold.creation import Bench

    bench = Bench(tmp_path, lambda: host, None, pi_dir)
    return init(bench, Init(folder=tmp_path / "mine", no_git=True), yes).notes


def test_init_names_adopt_only_when_pi_dir_holds_hand_placed_items(
    tmp_path: Path, host: HostInfo
) -> None:
    missing = _init_notes(tmp_path, host, tmp_path / "home" / ".pi" / "agent")
    assert len(missing) == 1 and "ext adopt" not in missing[0]
    agent = build_tree(
        tmp_path / "agent",
        {"extensions/alpha.ts": "export default function () {}\n", "skills/r/SKILL.md": "# r\n"},
    )
    (tmp_path / "mine").rename(tmp_path / "first")
    notes = _init_notes(tmp_path, host, agent)
    # from the set's folder, as `next:` says it (pasted elsewhere, adopt finds no set there)
    assert notes[0].startswith(f"next: cd {tmp_path / 'mine'} && ext install")
    assert notes[-1] == f"  or move the 2 items you placed by hand in {agent} into it: " + (
        f"cd {tmp_path / 'mine'} && ext adopt --all --from {agent}"
    )


def test_from_install_sh_never_climbs_out_of_its_repository_nor_takes_the_home(
    tmp_path: Path,
) -> None:
    """A review: with no repository above the script, the search climbed to the home folder,
    and a prompts/ there made ~ the set (`+ create ~/extset.toml`)."""
    home = Path.home()
    build_tree(
        home,
        {"prompts/note.md": "Note.\n", "install.sh": "#!/bin/sh\n", "Downloads/t/install.sh": ""},
    )
    for script in (home / "Downloads/t/install.sh", home / "install.sh"):  # above, and beside
        with pytest.raises(UsageError, match="no extensions/, skills/"):
            from_install_sh(script, None, False, yes, None)
    assert not (home / "extset.toml").exists()
    loose = build_tree(tmp_path / "loose", {"sub/install.sh": "", "extensions/a.ts": ""})
    with pytest.raises(UsageError, match="no extensions/, skills/"):  # no .git: no climbing
        from_install_sh(loose / "sub/install.sh", None, False, yes, None)


def test_the_examples_of_two_sets_install_side_by_side(tmp_path: Path, host: HostInfo) -> None:
    """helper-75: every set `ext init` made held `extensions/hello.ts`, so a second set's
    install into the same agent dir was refused (hello came from the first)."""
    from installer.commands.install import Install, install
    from installer.ground.context import Env, resolve

    agent = tmp_path / "agent"
    agent.mkdir()
    for name in ("mine", "work"):
        start_set(tmp_path / name, None, False, False, yes, host, None)
        ctx = resolve(Env(cwd=tmp_path), tmp_path / name, agent)
        assert install(ctx, Install(), yes).applied
    linked = sorted(p.name for p in (agent / "extensions").iterdir())
    assert [n for n in linked if not n.startswith("ext-command")] == [
        "mine-hello.ts",
        "work-hello.ts",
    ]


@pytest.mark.parametrize(
    "marks", [{".extset/state.json": "{}\n"}, {"settings.json": "{}\n", "sessions": None}]
)
def test_init_in_an_agent_dir_says_a_set_there_cannot_be_installed_into_it(
    tmp_path: Path, host: HostInfo, marks: dict[str, Any]
) -> None:
    """helper-77: `ext init` inside an agent dir said nothing; the install then refused."""
    agent = build_tree(tmp_path / "agent", marks)
    result = start_set(agent, None, False, True, yes, host, None)
    assert any(w.startswith(f"{agent} is an agent dir") for w in result.plan.warnings)
    plain = start_set(tmp_path / "set", None, False, True, yes, host, None)
    assert not any("is an agent dir" in w for w in plain.plan.warnings)
