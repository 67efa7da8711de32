"""`ext adopt --clean-backups`, and `ext undo` of an adoption that fails part-way."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from installer.commands.adopt import adopt_items
from installer.commands.undo import Undo, undo
from installer.ground.context import Context, Env, resolve
from installer.ground.errors import ExtError
from installer.scaffold.adopt_backups import clean_backups
from tests.helpers import build_tree, snapshot, yes


def _mine(tree: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    return {k: v for k, v in tree.items() if not k.startswith(".extset")}


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "mine"\n'})
    agent = build_tree(
        tmp_path / "agent",
        {
            "extensions/alpha.ts": "// alpha\n",
            "extensions/beta/index.ts": "// beta\n",
            "extensions/gamma.ts": "// the agent's gamma\n",
        },
    )
    build_tree(root, {"extensions/gamma.ts": "// the set's gamma\n"})
    return resolve(Env(cwd=tmp_path), root, agent)


def _backups(agent: Path) -> set[str]:
    return {str(p.relative_to(agent)) for p in agent.rglob("*.bak.*") if ".extset" not in p.parts}


def test_clean_removes_the_backups_the_set_duplicates_and_keeps_the_rest(ctx: Context) -> None:
    adopt_items(ctx, [], True, "set", False, yes)
    assert len(_backups(ctx.agent_dir)) == 3
    dry = clean_backups(ctx, True, yes)
    assert dry.dry_run and len(dry.plan.changes) == 2
    assert len(_backups(ctx.agent_dir)) == 3
    result = clean_backups(ctx, False, yes)
    assert result.applied
    assert {Path(a.path).name.split(".bak.")[0] for a in result.plan.changes} == {
        "alpha.ts",
        "beta",
    }
    (left,) = _backups(ctx.agent_dir)
    assert left.startswith("extensions/gamma.ts.bak.")  # the agent's own gamma: no copy anywhere
    assert (ctx.agent_dir / left).read_text() == "// the agent's gamma\n"
    assert any("gamma.ts.bak." in w and "not a copy" in w for w in result.plan.warnings)
    assert not list((ctx.agent_dir / ".extset").glob("trash-*"))
    assert clean_backups(ctx, False, yes).plan.is_empty  # a second run has nothing to do


def test_a_backup_changed_since_is_kept(ctx: Context) -> None:
    adopt_items(ctx, ["alpha"], False, None, False, yes)
    (backup,) = _backups(ctx.agent_dir)
    (ctx.agent_dir / backup).write_text("// edited after adoption\n")
    (ctx.set_root / "extensions/alpha.ts").write_text("// edited in the set too\n")
    result = clean_backups(ctx, False, yes)
    assert result.plan.is_empty
    assert _backups(ctx.agent_dir) == {backup}


@pytest.mark.parametrize("change", ["deleted", "edited", "set gone"])
def test_a_backup_the_set_no_longer_holds_is_kept(ctx: Context, change: str) -> None:
    """A backup goes only while the set holds its bytes now: once the set's copy is gone or
    edited (the set deleted and made again, a `git rm`), the backup is the only copy."""
    adopt_items(ctx, ["alpha"], False, None, False, yes)
    (backup,) = _backups(ctx.agent_dir)
    copy = ctx.set_root / "extensions/alpha.ts"
    if change == "deleted":
        copy.unlink()
    elif change == "edited":
        copy.write_text("// edited in the set\n")
    else:
        shutil.rmtree(ctx.set_root)
        build_tree(ctx.set_root, {"extset.toml": '[set]\nname = "mine"\n'})

    result = clean_backups(ctx, False, yes)

    assert result.plan.is_empty
    assert (ctx.agent_dir / backup).read_text() == "// alpha\n"
    (kept,) = result.plan.warnings
    said = "the set's copy was changed since" if change == "edited" else "the set no longer holds"
    assert backup in kept and said in kept and "the only copy" in kept, kept


def test_an_undone_adoption_has_no_backups_to_clean(ctx: Context) -> None:
    adopt_items(ctx, ["alpha"], False, None, False, yes)
    undo(ctx, Undo(), yes)
    assert clean_backups(ctx, False, yes).plan.is_empty
    assert (ctx.agent_dir / "extensions/alpha.ts").read_text() == "// alpha\n"


def test_after_cleaning_undo_refuses_rather_than_lose_the_original(ctx: Context) -> None:
    adopt_items(ctx, ["alpha"], False, None, False, yes)
    clean_backups(ctx, False, yes)
    agent_now, set_now = snapshot(ctx.agent_dir), snapshot(ctx.set_root)
    with pytest.raises(ExtError, match="changed since"):
        undo(ctx, Undo(), yes)
    assert snapshot(ctx.agent_dir) == agent_now
    assert snapshot(ctx.set_root) == set_now


def test_undo_after_cleaning_names_the_clean_and_the_copy_that_puts_it_back(
    ctx: Context, tmp_path: Path
) -> None:
    """A trial (helper-41): undo blamed a change 'since it ran' and said 'undo by hand' for
    the backups ext's own clean deleted. It names the clean, and the copy from the set that
    puts each back; pasted, the next undo takes the adoption back whole."""
    import subprocess

    before = _mine(snapshot(ctx.agent_dir))
    adopt_items(ctx, ["alpha", "beta"], False, None, False, yes)
    clean_backups(ctx, False, yes)

    with pytest.raises(ExtError) as refused:
        undo(ctx, Undo(), yes)

    said = refused.value.message
    assert said.count("was deleted by `ext adopt --clean-backups` of ") == 2
    assert f"the set's copy, {ctx.set_root}/extensions/alpha.ts, is the original now" in said
    fix = (refused.value.fix or "").removeprefix("nothing was written; ")
    commands = fix.split(", then run `ext undo` again")[0].split("; ")
    assert [c.split(": ", 1)[0] for c in commands] == ["to undo the adopt, put it back"] * 2
    for command in commands:
        subprocess.run(["bash", "-c", command.split(": ", 1)[1]], check=True, cwd=tmp_path)
    undo(ctx, Undo(), yes)
    assert _mine(snapshot(ctx.agent_dir)) == before


def test_a_failing_clean_puts_every_backup_back(
    ctx: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    adopt_items(ctx, ["alpha", "beta"], False, None, False, yes)
    before = _mine(snapshot(ctx.agent_dir))
    real = os.rename
    calls = {"n": 0}

    def failing(src: str, dst: str) -> None:
        if "trash-" in str(dst):
            calls["n"] += 1
            if calls["n"] == 2:
                raise OSError(16, "Device or resource busy", str(src))
        real(src, dst)

    monkeypatch.setattr(os, "rename", failing)
    with pytest.raises(ExtError, match="busy"):
        clean_backups(ctx, False, yes)
    assert _mine(snapshot(ctx.agent_dir)) == before
    assert not list((ctx.agent_dir / ".extset").glob("trash-*"))


def test_an_undo_failing_part_way_puts_the_copies_back(
    ctx: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    adopt_items(ctx, ["alpha", "beta"], False, None, False, yes)
    agent_now, set_now = snapshot(ctx.agent_dir), snapshot(ctx.set_root)
    real = os.rename

    def failing(src: str, dst: str) -> None:
        # The undo restores beta's backup and takes beta's copy out, then fails on alpha's.
        if ".bak." in str(src) and "alpha" in str(src):
            raise OSError(5, "Input/output error", str(src))
        real(src, dst)

    with monkeypatch.context() as patched, pytest.raises(ExtError, match="rolled back"):
        patched.setattr(os, "rename", failing)
        undo(ctx, Undo(), yes)
    assert _mine(snapshot(ctx.agent_dir)) == _mine(agent_now)
    assert snapshot(ctx.set_root) == set_now  # beta's copy, already taken out, is back
    assert not [p for p in ctx.set_root.iterdir() if p.name.startswith(".ext-undone-")]


def test_a_backup_holding_a_clones_git_is_kept(ctx: Context) -> None:
    """helper-26: adopt leaves a cloned folder's .git and node_modules out of the set's copy,
    and the backup keeps them; clean-backups compared the two without them and pruned the
    backup, unpushed commits and all."""
    build_tree(
        ctx.agent_dir,
        {"extensions/ssh/index.ts": "// ssh\n", "extensions/ssh/.git/HEAD": "ref: main\n"},
    )
    adopt_items(ctx, ["ssh"], False, None, False, yes)
    assert not (ctx.set_root / "extensions/ssh/.git").exists()

    result = clean_backups(ctx, False, yes)

    assert result.plan.is_empty
    (kept,) = result.plan.warnings
    assert "holds .git, which the set's copy leaves out: the only copy" in kept
    (backup,) = ctx.agent_dir.glob("extensions/.bak/ssh.bak.*")
    assert (backup / ".git/HEAD").read_text() == "ref: main\n"
