"""`ext adopt`: hand-placed files and folders move into the set, verified, linked back in place;
conflicts are diffs; one `ext undo` puts the agent dir and the set back exactly."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from installer.commands.adopt import adopt_items
from installer.commands.install import Install, install
from installer.commands.undo import Undo, undo
from installer.engine.plan import Plan
from installer.ground import trees
from installer.ground.context import Context, Env, resolve
from installer.ground.errors import ExtError, UsageError
from installer.ground.state import load_state
from installer.links.scan import scan
from installer.scaffold.adopt_scan import candidates
from installer.sets.resources import FOLDER, discover
from tests.helpers import AT, Clock, build_tree, snapshot, yes

ALPHA = b"// alpha, placed by hand\nexport default function () {}\n"
BETA = b"// beta\nexport default function () {}\n"
STAMP = AT.strftime("%Y%m%d-%H%M%S")


def _mine(tree: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    return {k: v for k, v in tree.items() if not k.startswith(".extset")}


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    root = build_tree(
        tmp_path / "set",
        {"extset.toml": '[set]\nname = "mine"\n', "extensions/hello.ts": "// hello"},
    )
    agent = build_tree(
        tmp_path / "agent",
        {
            "extensions/alpha.ts": ALPHA,
            "extensions/beta/index.ts": BETA,
            "extensions/beta/lib/util.ts": "export const x = 1;\n",
            "extensions/beta/lib/link.ts": Path("util.ts"),
            "skills/review/SKILL.md": "---\nname: review\ndescription: r\n---\n",
            "prompts/fix.md": "Fix it.\n",
            "themes/night.json": '{"name": "night"}\n',
            "settings.json": '{\n  "theme": "dark"\n}\n',
        },
    )
    (agent / "extensions" / "alpha.ts").chmod(0o640)
    return resolve(Env(cwd=tmp_path), root, agent)


def _adopt(ctx: Context, *names: str, prefer: str | None = None) -> Plan:
    every = not names
    return adopt_items(ctx, list(names), every, prefer, False, yes).plan


def test_adopt_all_copies_verifies_backs_up_and_links(ctx: Context) -> None:
    agent, root = ctx.agent_dir, ctx.set_root
    originals = {rel: trees.entries(agent / rel) for rel in
                 ("extensions/alpha.ts", "extensions/beta", "skills/review", "prompts/fix.md",
                  "themes/night.json")}  # fmt: skip
    plan = _adopt(ctx)
    assert plan.summary(done=True) == "5 linked, 5 backed up, 5 copied into the set"
    for rel, entries in originals.items():
        link = agent / rel
        assert link.is_symlink() and os.readlink(link) == str(root / rel)
        assert trees.entries(root / rel) == entries  # byte for byte, links as links
    assert (root / "extensions/alpha.ts").read_bytes() == ALPHA
    assert (root / "extensions/alpha.ts").stat().st_mode & 0o777 == 0o640
    assert os.readlink(root / "extensions/beta/lib/link.ts") == "util.ts"
    # Backups: files beside, folders parked in `.bak/` where pi never looks.
    backup = next((agent / "extensions").glob("alpha.ts.bak.*"))
    assert backup.read_bytes() == ALPHA
    (bak,) = (agent / "extensions" / ".bak").iterdir()
    assert bak.name.startswith("beta.bak.") and trees.entries(bak) == originals["extensions/beta"]
    assert next((agent / "skills" / ".bak").iterdir()).name.startswith("review.bak.")
    record = load_state(agent).for_root(root)
    assert record is not None and record.mode == "link"


def test_a_second_adopt_and_an_install_have_nothing_to_do(ctx: Context) -> None:
    _adopt(ctx)
    assert adopt_items(ctx, [], True, None, False, yes).plan.is_empty
    again = install(ctx, Install(dry_run=True), yes)
    assert {a.path for a in again.plan.actions if a.action == "keep"} >= {
        "extensions/alpha.ts",
        "extensions/beta",
    }


def test_adopt_by_name_takes_only_those(ctx: Context) -> None:
    _adopt(ctx, "alpha.ts", "skill:review")
    assert (ctx.agent_dir / "extensions/alpha.ts").is_symlink()
    assert (ctx.agent_dir / "skills/review").is_symlink()
    assert not (ctx.agent_dir / "extensions/beta").is_symlink()
    assert not (ctx.set_root / "extensions/beta").exists()


def test_adopt_then_undo_restores_the_agent_dir_and_the_set_exactly(ctx: Context) -> None:
    agent_before, set_before = snapshot(ctx.agent_dir), snapshot(ctx.set_root)
    _adopt(ctx)
    assert snapshot(ctx.set_root) != set_before
    result = undo(ctx, Undo(), yes)
    assert result.applied
    assert _mine(snapshot(ctx.agent_dir)) == _mine(agent_before)
    assert snapshot(ctx.set_root) == set_before


def test_undo_leaves_a_copy_changed_since_and_says_so(ctx: Context) -> None:
    _adopt(ctx)
    (ctx.set_root / "extensions/beta/index.ts").write_text("// edited in the set\n")
    agent_now, set_now = snapshot(ctx.agent_dir), snapshot(ctx.set_root)
    with pytest.raises(ExtError, match=r"changed since it ran: .*extensions/beta"):
        undo(ctx, Undo(), yes)
    assert snapshot(ctx.agent_dir) == agent_now
    assert snapshot(ctx.set_root) == set_now


def test_a_copy_that_is_not_byte_for_byte_rolls_everything_back(
    ctx: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent_before, set_before = snapshot(ctx.agent_dir), snapshot(ctx.set_root)
    real = trees._copy_file

    def corrupting(src: Path, dst: Path) -> None:
        real(src, dst)
        if dst.name == "util.ts":
            with dst.open("ab") as f:
                f.write(b"\0")  # one byte more than the original

    monkeypatch.setattr(trees, "_copy_file", corrupting)
    with pytest.raises(ExtError, match="not byte for byte"):
        _adopt(ctx)
    assert _mine(snapshot(ctx.agent_dir)) == _mine(agent_before)
    assert snapshot(ctx.set_root) == set_before


@pytest.mark.parametrize("nth", [1, 3, 5])
def test_a_failing_link_rolls_everything_back(
    ctx: Context, monkeypatch: pytest.MonkeyPatch, nth: int
) -> None:
    agent_before, set_before = snapshot(ctx.agent_dir), snapshot(ctx.set_root)
    real = os.symlink
    calls = {"n": 0}

    def failing(src: str, dst: str, *args: object, **kw: object) -> None:
        if not str(dst).startswith(str(ctx.set_root)):  # links inside copied folders still work
            calls["n"] += 1
            if calls["n"] == nth:
                raise OSError(28, "No space left on device", str(dst))
        real(src, dst)

    monkeypatch.setattr(os, "symlink", failing)
    with pytest.raises(ExtError, match="rolled back"):
        _adopt(ctx)
    assert _mine(snapshot(ctx.agent_dir)) == _mine(agent_before)
    assert snapshot(ctx.set_root) == set_before


def test_a_conflict_is_a_diff_and_is_skipped(ctx: Context) -> None:
    build_tree(ctx.set_root, {"extensions/alpha.ts": "// the set's alpha\n"})
    agent_before, set_before = snapshot(ctx.agent_dir), snapshot(ctx.set_root)
    result = adopt_items(ctx, ["alpha"], False, None, False, yes)
    assert result.plan.is_empty
    (skip,) = [a for a in result.plan.actions if a.action == "skip"]
    assert skip.path == "extensions/alpha.ts" and "--prefer" in (skip.detail or "")
    text = "\n".join(result.notes)
    assert "--- set/extensions/alpha.ts" in text and "+++ agent/extensions/alpha.ts" in text
    assert "-// the set's alpha" in text and "+// alpha, placed by hand" in text
    # a note is a line: a diff's newlines in one were printed as `\n`, the diff on one line
    assert all("\n" not in note for note in result.notes)
    assert snapshot(ctx.agent_dir) == agent_before
    assert snapshot(ctx.set_root) == set_before


def test_a_folder_conflict_diffs_file_by_file(ctx: Context) -> None:
    build_tree(ctx.set_root, {"extensions/beta/index.ts": "// other\n", "extensions/beta/x.ts": ""})
    result = adopt_items(ctx, ["beta"], False, None, True, yes)
    text = "\n".join(result.notes) + "\n".join(result.diffs)
    assert "only in the set: extensions/beta/x.ts" in text
    assert "only in the agent dir: extensions/beta/lib/util.ts" in text
    assert "+++ agent/extensions/beta/index.ts" in text


def test_an_identical_one_is_linked_without_a_copy(ctx: Context) -> None:
    build_tree(ctx.set_root, {"extensions/alpha.ts": ALPHA})
    plan = _adopt(ctx, "alpha")
    assert [a.action for a in plan.changes] == ["backup", "link"]
    assert os.readlink(ctx.agent_dir / "extensions/alpha.ts") == str(
        ctx.set_root / "extensions/alpha.ts"
    )


def test_prefer_set_keeps_the_sets_and_backs_up_the_agents(ctx: Context) -> None:
    build_tree(ctx.set_root, {"extensions/alpha.ts": "// the set's\n"})
    set_before = snapshot(ctx.set_root)
    _adopt(ctx, "alpha", prefer="set")
    assert snapshot(ctx.set_root) == set_before
    assert (ctx.agent_dir / "extensions/alpha.ts").read_text() == "// the set's\n"
    assert next((ctx.agent_dir / "extensions").glob("alpha.ts.bak.*")).read_bytes() == ALPHA


def test_prefer_agent_takes_the_agents_and_undo_puts_the_sets_back(ctx: Context) -> None:
    build_tree(ctx.set_root, {"extensions/beta/index.ts": "// the set's beta\n"})
    agent_before, set_before = snapshot(ctx.agent_dir), snapshot(ctx.set_root)
    _adopt(ctx, "beta", prefer="agent")
    assert (ctx.set_root / "extensions/beta/index.ts").read_bytes() == BETA
    (kept,) = (ctx.set_root / "extensions" / ".bak").iterdir()
    assert (kept / "index.ts").read_text() == "// the set's beta\n"
    undo(ctx, Undo(), yes)
    assert _mine(snapshot(ctx.agent_dir)) == _mine(agent_before)
    assert snapshot(ctx.set_root) == set_before


def test_prefer_agent_never_puts_the_sets_version_over_a_backup_it_has(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "mine"\n',
            "extensions/alpha.ts": "// the set's\n",
            f"extensions/alpha.ts.bak.{STAMP}": "// an older backup\n",
        },
    )
    agent = build_tree(tmp_path / "agent", {"extensions/alpha.ts": ALPHA})
    adopt_items(resolve(Clock(cwd=tmp_path), root, agent), ["alpha"], False, "agent", False, yes)
    assert (root / f"extensions/alpha.ts.bak.{STAMP}").read_text() == "// an older backup\n"
    assert (root / f"extensions/alpha.ts.bak.{STAMP}-1").read_text() == "// the set's\n"
    assert (root / "extensions/alpha.ts").read_bytes() == ALPHA


def test_what_is_not_adoptable(ctx: Context) -> None:
    build_tree(
        ctx.agent_dir,
        {
            "extensions/gone.ts.bak.20240101-120000": "// a backup",
            "extensions/.bak/old.bak.20240101-120000/index.ts": "// parked",
            "extensions/off.off/index.ts": "// a folder so named: pi loads it, not ours to take",
            "extensions/notes.txt": "not an extension",
            "extensions/empty/readme.md": "no index",
            "extensions/foreign.ts": Path("/elsewhere/foreign.ts"),
        },
    )
    result = adopt_items(ctx, [], True, None, True, yes)
    adopted = {a.path for a in result.plan.actions if a.action == "copy"}
    assert adopted == {"extensions/alpha.ts", "extensions/beta", "skills/review",
                       "prompts/fix.md", "themes/night.json"}  # fmt: skip
    assert any("foreign.ts is a link" in w for w in result.plan.warnings)


@pytest.mark.parametrize(
    ("names", "every", "match"),
    [
        ([], False, "or pass --all"),
        (["alpha"], True, "not both"),
        (["alpah"], False, "did you mean 'alpha'"),
        (["../x"], False, "contains"),
        (["prompt:alpha"], False, "no file or folder"),
    ],
)
def test_bad_selections_are_usage_errors(
    ctx: Context, names: list[str], every: bool, match: str
) -> None:
    before = snapshot(ctx.agent_dir)
    with pytest.raises(UsageError) as caught:
        adopt_items(ctx, names, every, None, False, yes)
    assert match in f"{caught.value.message} (fix: {caught.value.fix})"
    assert snapshot(ctx.agent_dir) == before


def test_a_link_by_name_is_not_adopted_and_says_why(ctx: Context) -> None:
    """helper-75: `ext adopt linked` said the agent dir had nothing of that name."""
    build_tree(ctx.agent_dir, {"extensions/foreign.ts": Path("/elsewhere/foreign.ts")})
    with pytest.raises(UsageError) as err:
        adopt_items(ctx, ["foreign"], False, None, False, yes)
    assert (err.value.message, err.value.fix) == (
        "extensions/foreign.ts is a link to /elsewhere/foreign.ts, which is gone: adopt takes "
        "only real files or folders",
        "adopt what is yours (`ext adopt --all --dry-run` lists it)",
    )


def test_a_link_made_by_hand_names_the_folder_to_make_a_set_of(tmp_path: Path) -> None:
    """helper-75: a hand-written install.sh's links into ~/dotfiles were each said to be `a
    link to …: adopt takes only real files`, with no way on; a dangling one the same. A
    host's own folder is never offered as a set (helper-76: `ext init ~/.claude`)."""
    skill = "---\nname: rev\ndescription: r\n---\n"
    dots = build_tree(
        tmp_path / "dotfiles/pi", {"extensions/linked.ts": "", "skills/rev/SKILL.md": skill}
    )
    claude = build_tree(Path.home() / ".claude", {"skills/cl/SKILL.md": skill})
    done = build_tree(tmp_path / "done", {"extset.toml": '[set]\nname = "done"\n'})
    build_tree(done, {"prompts/p.md": "p\n"})
    agent = build_tree(
        tmp_path / "agent",
        {
            "extensions/linked.ts": dots / "extensions/linked.ts",
            "extensions/gone.ts": tmp_path / "nowhere.ts",
            "skills/rev": dots / "skills/rev",
            "skills/cl": claude / "skills/cl",
            "prompts/p.md": done / "prompts/p.md",
        },
    )
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "mine"\n'})
    _, links = candidates(scan(agent, root))
    only = "adopt takes only real files or folders"
    make = f"its folder can be a set of its own: ext init {dots} && ext --set {dots} install"
    assert {c.label: n.line for c, n in links.items()} == {
        "gone": f"extensions/gone.ts is a link to {tmp_path}/nowhere.ts, which is gone: {only}",
        "linked": f"extensions/linked.ts is a link to {dots}/extensions/linked.ts: {only}; {make}",
        "prompt:p": f"prompts/p.md is a link to {done}/prompts/p.md: {only}; it is an item of "
        f"the set at {done}: ext --set {done} install",
        "skill:cl": f"skills/cl is a link to {claude}/skills/cl: {only}",
        "skill:rev": f"skills/rev is a link to {dots}/skills/rev: {only}; {make}",
    }


def test_dry_run_writes_nothing(ctx: Context) -> None:
    agent_before, set_before = snapshot(ctx.agent_dir), snapshot(ctx.set_root)
    result = adopt_items(ctx, [], True, None, True, yes)
    assert result.dry_run and result.changed
    assert snapshot(ctx.agent_dir) == agent_before
    assert snapshot(ctx.set_root) == set_before


def test_something_that_cannot_be_copied_is_skipped(ctx: Context) -> None:
    os.mkfifo(ctx.agent_dir / "extensions/beta/pipe")
    plan = _adopt(ctx, "beta", "alpha")
    (skip,) = [a for a in plan.actions if a.action == "skip"]
    assert skip.path == "extensions/beta" and "cannot be copied" in (skip.detail or "")
    assert not (ctx.agent_dir / "extensions/beta").is_symlink()
    assert (ctx.agent_dir / "extensions/alpha.ts").is_symlink()


def test_a_set_registered_here_is_refused(ctx: Context) -> None:
    install(ctx, Install(mode="register"), yes)
    with pytest.raises(ExtError, match="register"):
        adopt_items(ctx, [], True, None, False, yes)


def test_a_folder_pi_would_not_load_is_not_adopted(ctx: Context) -> None:
    build_tree(
        ctx.agent_dir,
        {
            "extensions/lib/package.json": '{"name": "lib"}',  # no `pi` key: not an extension
            "extensions/pkg/package.json": '{"name": "pkg", "pi": {}}',  # pi key, no entries
            "extensions/tab/package.json": '{"pi": {"extensions": ["./tab.ts"]}}',
            "extensions/tab/tab.ts": "",
        },
    )
    result = adopt_items(ctx, [], True, None, True, yes)
    adopted = {a.path for a in result.plan.actions if a.action == "copy"}
    assert "extensions/tab" in adopted
    assert "extensions/pkg" not in adopted
    assert "extensions/lib" not in adopted


def test_two_of_one_name_adopt_only_the_first(ctx: Context) -> None:
    build_tree(ctx.agent_dir, {"extensions/alpha/index.ts": "// a folder alpha too"})
    plan = _adopt(ctx, "alpha")
    skipped = [a for a in plan.actions if a.action == "skip"]
    assert [a.path for a in skipped] == ["extensions/alpha.ts"]
    assert (ctx.agent_dir / "extensions/alpha").is_symlink()
    assert not (ctx.set_root / "extensions/alpha.ts").exists()
    assert {r.name for r in discover(ctx.set_root)} == {"alpha", "hello"}


def test_cli_adopt_needs_a_set_of_yours_and_one_agent_dir(ctx: Context) -> None:
    from click.testing import CliRunner

    from installer.cli.app import app

    runner = CliRunner()
    done = runner.invoke(app, ["adopt", "--all", "--from", str(ctx.agent_dir)])
    assert done.exit_code == 2  # the cwd holds no set: the bundled one is never adopted into
    where = ["--set", str(ctx.set_root), "--agent-dir", str(ctx.set_root)]
    done = runner.invoke(app, [*where, "adopt", "--all", "--from", str(ctx.agent_dir)])
    assert done.exit_code == 2
    done = runner.invoke(app, ["--set", str(ctx.set_root), "adopt", "--all", "--yes",
                               "--from", str(ctx.agent_dir)])  # fmt: skip
    assert done.exit_code == 0, done.output
    assert (ctx.agent_dir / "extensions/alpha.ts").is_symlink()


def test_a_git_clone_is_adopted_without_its_git_and_node_modules(ctx: Context) -> None:
    from installer.scaffold.adopt_backups import clean_backups

    build_tree(
        ctx.agent_dir,
        {
            "extensions/clone/index.ts": "import dep from 'dep';\n",
            "extensions/clone/.git/HEAD": "ref: refs/heads/main\n",
            "extensions/clone/node_modules/dep/index.js": "module.exports = 1;\n",
            "extensions/clone/lib/node_modules/x.js": "",  # at any depth
        },
    )
    result = adopt_items(ctx, ["clone"], False, None, False, yes)
    dest = ctx.set_root / "extensions/clone"
    assert sorted(rel for rel, _, _ in trees.entries(dest)) == ["", "index.ts", "lib"]
    (copy,) = [a for a in result.plan.actions if a.action == "copy"]
    assert copy.detail is not None
    for rel in (".git", "node_modules", "lib/node_modules"):
        assert f"{rel}: " in copy.detail
    assert "git clone" in copy.detail and "npm install" in copy.detail
    assert (ctx.agent_dir / "extensions/clone").resolve() == dest
    (backup,) = (ctx.agent_dir / "extensions/.bak").glob("clone.bak.*")
    assert (backup / ".git/HEAD").is_file()  # the original, whole
    cleaned = clean_backups(ctx, False, yes)  # its .git is in the backup alone: it stays
    assert not cleaned.plan.changes and (backup / ".git/HEAD").is_file()
    shutil.rmtree(backup / ".git")  # node_modules alone is no loss (npm install): it goes
    cleaned = clean_backups(ctx, False, yes)
    assert any(a.path.endswith(backup.name) for a in cleaned.plan.actions)
    assert not backup.exists()


def test_adopt_takes_the_files_pi_takes_from_a_set(tmp_path: Path) -> None:
    # One suffix table (installer.sets.pirules.SUFFIXES) for both: a file adopt would take in must
    # be one the set then offers as an item, and a file pi ignores stays where it is.
    files = {
        "extensions/a.ts": "",
        "extensions/b.js": "",
        "skills/c.md": "",
        "prompts/d.md": "",
        "themes/e.json": "{}",
    }
    ignored = {"extensions/f.mjs": "", "prompts/g.txt": "", "themes/h.md": ""}
    agent = build_tree(tmp_path / "agent", {**files, **ignored})
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "mine"\n', **files})
    found, _ = candidates(scan(agent, root))
    assert sorted(c.rel for c in found) == sorted(files)
    assert sorted(f"{FOLDER[r.kind]}/{r.filename}" for r in discover(root)) == sorted(files)


def adopt_from(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, list[str]]:
    """`ext adopt --all --from WHERE` run from a set's folder: its exit code and stderr lines."""
    from installer.cli import app as cli

    build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "mine"\n'})
    monkeypatch.chdir(tmp_path / "set")
    monkeypatch.setattr("sys.argv", ["ext", "adopt", "--all", "--from", where])
    with pytest.raises(SystemExit) as done:
        cli.main()
    code = done.value.code
    return code if isinstance(code, int) else 1, capsys.readouterr().err.splitlines()


def test_a_missing_from_dir_names_from_and_gives_no_create_advice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, err = adopt_from("~/.pi/agent", tmp_path, capsys, monkeypatch)
    assert code == 4
    assert err == [
        "error: ~/.pi/agent (--from) does not exist: there is nothing to adopt there",
        "  fix: name the agent dir that holds the extensions you placed by hand: "
        "ext adopt --all --from DIR",
    ]


def test_a_missing_from_dir_names_pi_s_agent_dir_when_it_is_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (Path.home() / ".pi" / "agent").mkdir(parents=True)
    code, err = adopt_from("~/nosuch", tmp_path, capsys, monkeypatch)
    assert code == 4
    assert err[1] == ("  fix: pi's agent dir is ~/.pi/agent: ext adopt --all --from ~/.pi/agent")


def test_a_missing_from_dir_never_names_a_dir_ext_installs_into(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After `eval "$(ext env)"` PI_CODING_AGENT_DIR names ext's own dir: nothing to adopt."""
    own = build_tree(tmp_path / "own", {".extset/state.json": '{"sets": []}'})
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(own))
    _, err = adopt_from("~/nosuch", tmp_path, capsys, monkeypatch)
    assert str(own) not in "\n".join(err)


def test_adopt_without_names_keeps_from_in_its_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A trial: `ext adopt --from ~/.pi/agent` said `fix: ext adopt --all --dry-run`, which,
    pasted, looked in another dir and found nothing to do."""
    from installer.cli import app as cli

    build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "mine"\n'})
    (Path.home() / ".pi/agent").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "set")
    monkeypatch.setattr("sys.argv", ["ext", "adopt", "--from", "~/.pi/agent"])
    with pytest.raises(SystemExit) as done:
        cli.main()
    assert done.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == "  fix: ext adopt --all --from ~/.pi/agent --dry-run"


def test_a_link_to_ext_s_own_agent_file_copy_is_not_named_as_a_foreign_link(
    tmp_path: Path,
) -> None:
    """A trial: `adopt --all` warned that extensions/ext-command.ts (ext's /ext command, a link
    to its copy in .extset/agent/) was a link it does not adopt, as of a link of the user's."""
    agent = build_tree(
        tmp_path / "agent",
        {".extset/agent/ext-command-0123456789ab.ts": "// ext's\n", "extensions/mine.ts": ""},
    )
    (agent / "extensions/ext-command.ts").symlink_to(
        agent / ".extset/agent/ext-command-0123456789ab.ts"
    )
    (agent / "extensions/theirs.ts").symlink_to(tmp_path / "elsewhere.ts")
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "mine"\n'})
    found, links = candidates(scan(agent, root))
    assert [c.rel for c in found] == ["extensions/mine.ts"]
    assert [n.why.split(" is a link")[0] for n in links.values()] == ["extensions/theirs.ts"]


def test_the_target_hint_is_left_out_once_extset_toml_names_the_dir(ctx: Context) -> None:
    """A trial: with `[target] agent_dir` naming the dir already, adopt still said ext would
    find the dir by itself once extset.toml had that line."""
    hint = "ext finds this agent dir by itself once extset.toml has [target]"
    named = ctx._replace(agent_dir_source="--agent-dir")
    result = adopt_items(named, ["alpha"], False, None, False, yes)
    assert any(n.startswith(hint) for n in result.notes)
    (ctx.set_root / "extset.toml").write_text(
        f'[set]\nname = "mine"\n[target]\nagent_dir = "{ctx.agent_dir}"\n'
    )
    ctx2 = resolve(Env(cwd=ctx.set_root.parent), ctx.set_root, ctx.agent_dir)
    result = adopt_items(
        ctx2._replace(agent_dir_source="--agent-dir"), ["beta"], False, None, False, yes
    )
    assert result.applied and not any(n.startswith(hint) for n in result.notes)


def test_uninstall_after_cleaned_backups_leaves_no_empty_bak_folder(ctx: Context) -> None:
    """A trial: adopt, `adopt --clean-backups`, uninstall left an empty skills/.bak/ (where a
    folder's backup goes), a folder of ext's the agent dir did not have before."""
    from installer.commands.uninstall import Uninstall, uninstall
    from installer.scaffold.adopt_backups import clean_backups

    assert not (ctx.agent_dir / "skills/.bak").exists()
    adopt_items(ctx, [], True, None, False, yes)
    assert any((ctx.agent_dir / "skills/.bak").iterdir())
    clean_backups(ctx, False, yes)
    uninstall(ctx, Uninstall(yes=True), yes)
    assert not (ctx.agent_dir / "skills/.bak").exists()
    assert not (ctx.agent_dir / "extensions/.bak").exists()


@pytest.mark.parametrize("names", [(), ("todo",)])
def test_a_file_switched_off_by_hand_is_adopted_switched_off(
    ctx: Context, names: tuple[str, ...]
) -> None:
    """helper-24: `todo.ts.off`, the off form the README and install.sh use, was passed over
    by `adopt --all`, and `adopt todo` said there was nothing named todo. It is adopted as
    the set's `todo.ts`, linked back at its `.off` name: off, as the person had it."""
    build_tree(ctx.agent_dir, {"extensions/todo.ts.off": "// todo, off\n", "prompts/x.md.off": "x"})

    plan = _adopt(ctx, *names)

    assert (ctx.set_root / "extensions/todo.ts").read_text() == "// todo, off\n"
    link = ctx.agent_dir / "extensions/todo.ts.off"
    assert link.is_symlink() and Path(os.readlink(link)) == ctx.set_root / "extensions/todo.ts"
    assert not os.path.lexists(ctx.agent_dir / "extensions/todo.ts")
    assert [a.detail for a in plan.actions if a.action == "link" and "todo" in a.path] == [
        "off, as you had it"
    ]
    backup = next(ctx.agent_dir.glob("extensions/todo.ts.off.bak.*"))
    assert backup.read_text() == "// todo, off\n"
    from installer.links.states import items

    states = {i.resource.label: i.state for i in items(ctx)[1]}
    assert states["todo"] == "disabled"
    assert ("prompt:x" in states) == (not names)


def test_an_adoption_switched_off_is_undone_exactly(ctx: Context) -> None:
    build_tree(ctx.agent_dir, {"extensions/todo.ts.off": "// todo, off\n"})
    before = _mine(snapshot(ctx.agent_dir))
    _adopt(ctx, "todo")
    undo(ctx, Undo(), yes)
    assert _mine(snapshot(ctx.agent_dir)) == before
    assert not (ctx.set_root / "extensions/todo.ts").exists()


def test_a_file_switched_off_by_hand_beside_the_sets_link_is_not_adopted_as_off(
    ctx: Context,
) -> None:
    """helper-26: with the set's alpha linked here (on), adopting a hand-made alpha.ts.off
    linked it at the .off name too, said "off, as you had it", and alpha stayed on."""
    install(ctx, Install(), yes)
    build_tree(ctx.set_root, {"extensions/todo.ts": "// todo\n"})
    install(ctx, Install(), yes)
    build_tree(ctx.agent_dir, {"extensions/todo.ts.off": "// todo\n"})

    plan = _adopt(ctx, "todo")

    (skip,) = plan.actions
    assert (skip.action, skip.path) == ("skip", "extensions/todo.ts.off")
    assert skip.detail == (
        "todo is linked here, on (extensions/todo.ts): your file stays; "
        "`ext disable todo` switches it off"
    )
    assert (ctx.agent_dir / "extensions/todo.ts.off").read_text() == "// todo\n"


def test_a_file_switched_off_by_hand_differing_from_the_sets_is_diffed_by_its_names(
    ctx: Context,
) -> None:
    build_tree(ctx.set_root, {"extensions/todo.ts": "// the set's\n"})
    build_tree(ctx.agent_dir, {"extensions/todo.ts.off": "// mine\n"})
    result = adopt_items(ctx, ["todo"], False, None, True, yes)
    (text,) = result.diffs
    assert "--- set/extensions/todo.ts\n+++ agent/extensions/todo.ts.off" in text


def test_inits_hint_counts_an_item_and_its_off_copy_once(ctx: Context, tmp_path: Path) -> None:
    from installer.commands.init import adopt_hint

    pi_dir = build_tree(
        tmp_path / "pi",
        {"extensions/todo.ts": "// on\n", "extensions/todo.ts.off": "// off\n"},
    )
    (line,) = adopt_hint(pi_dir, tmp_path / "new-set")
    assert "the 1 item you placed by hand" in line


def _stowed(ctx: Context, extra: dict[str, str] | None = None) -> None:
    """The set's `tools` folder, and in the agent dir a real folder of relative links to each
    of its files, as `stow --no-folding` makes (plus `extra`, real files of the user)."""
    build_tree(
        ctx.set_root, {"extensions/tools/index.ts": "// i\n", "extensions/tools/a/h.ts": "1"}
    )
    for rel in ("index.ts", "a/h.ts"):
        link = ctx.agent_dir / "extensions/tools" / rel
        link.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(os.path.relpath(ctx.set_root / "extensions/tools" / rel, link.parent), link)
    build_tree(ctx.agent_dir / "extensions/tools", dict(extra or {}))


@pytest.mark.parametrize("prefer", [None, "agent", "set"])
def test_a_folder_of_links_to_the_sets_own_files_is_the_sets_item(
    ctx: Context, prefer: str | None
) -> None:
    """A trial (helper-41): with --prefer agent, adopt copied stow's links into the set in
    place of the set's folder (moved to .bak/): each led back to itself, and pi dropped the
    extension. Such a folder is the set's item already: backed up and linked, nothing copied."""
    _stowed(ctx)
    set_before = snapshot(ctx.set_root)

    plan = _adopt(ctx, "tools", prefer=prefer)

    assert [a.action for a in plan.changes] == ["backup", "link"]
    assert "GNU Stow's --no-folding" in (plan.changes[0].detail or "")
    assert snapshot(ctx.set_root) == set_before
    assert os.readlink(ctx.agent_dir / "extensions/tools") == str(ctx.set_root / "extensions/tools")
    assert (ctx.agent_dir / "extensions/tools/index.ts").read_text() == "// i\n"


def test_a_folder_with_links_into_the_set_and_files_of_its_own_is_skipped(ctx: Context) -> None:
    _stowed(ctx, {"mine.ts": "// the user's\n"})
    set_before, agent_before = snapshot(ctx.set_root), snapshot(ctx.agent_dir)

    plan = _adopt(ctx, "tools", prefer="agent")

    [skip] = [a for a in plan.actions if a.path == "extensions/tools"]
    assert skip.action == "skip"
    assert skip.detail == (
        "holds links into the set (index.ts, a/h.ts); copied, the set would lead to itself; "
        "merge by hand"
    )
    assert snapshot(ctx.set_root) == set_before
    assert _mine(snapshot(ctx.agent_dir)) == _mine(agent_before)


def test_adopt_all_leaves_a_name_the_set_would_refuse_and_says_why(ctx: Context) -> None:
    """A review (helper-43): `adopt --all` copied in `my, ext.ts`, after which every command
    on the set refused the name. It is left where it is, with the reason and the rename."""
    build_tree(ctx.agent_dir, {"extensions/my, ext.ts": "// mine\n"})
    set_before = snapshot(ctx.set_root)

    result = adopt_items(ctx, [], True, None, False, yes)

    assert not (ctx.set_root / "extensions/my, ext.ts").exists()
    assert (ctx.agent_dir / "extensions/my, ext.ts").read_text() == "// mine\n"
    assert any(
        w.startswith("extensions/my, ext.ts: extension name 'my, ext' contains ','")
        and w.endswith("; rename it, then adopt it")
        for w in result.plan.warnings
    ), result.plan.warnings
    assert snapshot(ctx.set_root) != set_before  # the rest was adopted
    discover(ctx.set_root)  # and the set still loads
