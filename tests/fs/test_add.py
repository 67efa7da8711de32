"""`ext add`: a new resource from a template, never over an existing one, names checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.commands.add import add_item
from installer.ground.errors import UsageError
from installer.sets.resources import discover
from tests.helpers import build_tree, snapshot, yes


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "s"\n'})


@pytest.mark.parametrize(
    ("name", "kind", "as_dir", "path"),
    [
        ("deploy", "extension", False, "extensions/deploy.ts"),
        ("deploy.ts", "extension", False, "extensions/deploy.ts"),
        ("deploy", "extension", True, "extensions/deploy/index.ts"),
        ("review", "skill", False, "skills/review/SKILL.md"),
        ("fix", "prompt", False, "prompts/fix.md"),
        ("night", "theme", False, "themes/night.json"),
    ],
)
def test_add_makes_a_resource_the_set_discovers(
    root: Path, name: str, kind: str, as_dir: bool, path: str
) -> None:
    result = add_item(root, name, kind, as_dir, False, yes, None)
    assert result.applied
    assert [a.path for a in result.plan.changes] == [str(root / path)]
    found = discover(root)
    assert [(r.kind, r.name) for r in found] == [(kind, Path(path).parts[1].split(".")[0])]


def test_templates_are_lean(root: Path) -> None:
    add_item(root, "deploy", "extension", False, False, yes, None)
    text = (root / "extensions" / "deploy.ts").read_text()
    assert [line for line in text.splitlines() if line.strip().startswith("pi.")] == []
    add_item(root, "review", "skill", False, False, yes, None)
    assert "name: review\n" in (root / "skills" / "review" / "SKILL.md").read_text()
    add_item(root, "night", "theme", False, False, yes, None)
    theme = json.loads((root / "themes" / "night.json").read_text())
    assert theme["name"] == "night" and len(theme["colors"]) == 51


def test_add_never_overwrites(root: Path) -> None:
    build_tree(root, {"extensions/deploy/index.ts": "// mine"})
    before = snapshot(root)
    for name in ("deploy", "deploy.ts"):
        with pytest.raises(UsageError, match="already has"):
            add_item(root, name, "extension", False, False, yes, None)
    assert snapshot(root) == before


@pytest.mark.parametrize(
    ("name", "kind", "as_dir", "match"),
    [
        ("../evil", "extension", False, "contains"),
        ("-x", "extension", False, "starts with"),
        (".hidden", "extension", False, "hidden"),
        ("bad name", "extension", False, "a space or a comma"),
        ("a,b", "prompt", False, "contains ','"),
        ("Bad_Name", "skill", False, "lowercase"),
        ("a" * 65, "skill", False, "at most 64 characters; this one has 65"),
        ("x", "prompt", True, "--dir"),
        ("x", "plugin", False, "unknown kind"),
    ],
)
def test_bad_names_are_usage_errors(
    root: Path, name: str, kind: str, as_dir: bool, match: str
) -> None:
    before = snapshot(root)
    with pytest.raises(UsageError, match=match):
        add_item(root, name, kind, as_dir, False, yes, None)
    assert snapshot(root) == before


def test_dry_run_writes_nothing(root: Path) -> None:
    before = snapshot(root)
    result = add_item(root, "deploy", "extension", False, True, yes, None)
    assert result.dry_run and result.changed
    assert snapshot(root) == before


def test_cli_add_refuses_the_bundled_set(root: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["add", "x"], env={"EXT_NO_UPDATE_CHECK": "1"})
    # The test's cwd holds no extset.toml: the bundled set would be the target.
    assert done.exit_code == 2, done.output
    assert not list(Path(__file__).resolve().parents[2].glob("extensions/x.ts"))
    done = runner.invoke(app, ["--set", str(root), "add", "x", "--yes"])
    assert done.exit_code == 0, done.output
    assert (root / "extensions" / "x.ts").is_file()


def test_cli_add_shows_its_plan_and_asks_unless_yes(root: Path) -> None:
    runner = CliRunner()
    env = {"EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    asked = runner.invoke(app, ["--set", str(root), "add", "deploy"], env=env)
    assert asked.exit_code == 3, asked.output  # no terminal to ask on: refused, names --yes
    assert "+ create" in asked.output and "extensions/deploy.ts" in asked.output
    assert "--yes" in asked.output
    assert not (root / "extensions").exists()
    dry = runner.invoke(app, ["--set", str(root), "add", "deploy", "--dry-run"], env=env)
    assert dry.exit_code == 0 and "1 to create" in dry.output
    assert not (root / "extensions").exists()
    done = runner.invoke(app, ["--set", str(root), "add", "deploy", "--yes"], env=env)
    assert done.exit_code == 0, done.output
    assert "done: 1 created" in done.output and (root / "extensions" / "deploy.ts").is_file()


def test_add_refuses_extensions_index_which_would_swallow_the_folder(root: Path) -> None:
    with pytest.raises(UsageError) as err:
        add_item(root, "index", "extension", False, False, yes, None)
    assert "one extension" in err.value.message
    assert not (root / "extensions").exists()
    assert add_item(root, "index", "extension", True, False, yes, None).applied  # a folder is fine


@pytest.mark.parametrize(
    ("declared", "warned", "path"),
    [
        (["./extensions"], False, "extensions/deploy.ts"),
        (["./extensions/*.ts"], False, "extensions/deploy.ts"),
        (["extensions/deploy.ts"], False, "extensions/deploy.ts"),
        (["./src/*.ts"], False, "src/deploy.ts"),  # where the manifest looks
        (["./src/index.ts", "./lib/**/*.ts"], False, "lib/deploy.ts"),
        (["./src/index.ts"], True, "extensions/deploy.ts"),  # a file: no folder to put it in
        ([], True, "extensions/deploy.ts"),
    ],
)
def test_add_to_a_pi_package_puts_it_where_the_manifest_looks_or_says_it_misses_it(
    root: Path, declared: list[str], warned: bool, path: str
) -> None:
    build_tree(root, {"package.json": json.dumps({"pi": {"extensions": declared}})})
    result = add_item(root, "deploy", "extension", False, False, yes, None)
    assert result.applied
    assert [a.path for a in result.plan.changes] == [str(root / path)]
    said = [w for w in result.plan.warnings if "pi package" in w]
    assert bool(said) is warned
    assert [r.name for r in discover(root)] == ([] if warned else ["deploy"])


def test_add_a_skill_to_a_pi_package_goes_to_the_folder_its_manifest_names(root: Path) -> None:
    build_tree(root, {"package.json": json.dumps({"pi": {"skills": ["./agent-skills"]}})})
    result = add_item(root, "gamma", "skill", False, False, yes, None)
    assert [a.path for a in result.plan.changes] == [str(root / "agent-skills/gamma/SKILL.md")]
    assert not result.plan.warnings
    assert [(r.kind, r.name) for r in discover(root)] == [("skill", "gamma")]


def test_the_next_step_after_add_installs_the_new_item_and_keeps_the_others(
    root: Path, tmp_path: Path
) -> None:
    """Not `install --only NAME`: a selection is what is installed, and would unlink the rest."""
    import shlex

    build_tree(root, {"extensions/hello.ts": "export default function () {}\n"})
    build_tree(root, {"extensions/mine.ts": "export default function () {}\n"})
    agent = tmp_path / "agent"
    env = {"EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    runner = CliRunner()
    flags = ["--set", str(root), "--agent-dir", str(agent)]
    assert runner.invoke(app, [*flags, "install", "--create", "--yes"], env=env).exit_code == 0
    done = runner.invoke(app, [*flags, "add", "greet", "--yes"], env=env)
    assert done.exit_code == 0, done.output
    [note] = [ln for ln in done.output.splitlines() if ln.startswith("next: ")]
    command = shlex.split(note.removeprefix("next: ").partition("   (")[0])
    assert command[1:] == [*flags, "install"]  # the dir it was given, never the isolated one
    # helper-60: "(links it …)" in register mode too, where nothing is linked
    assert note.endswith("(installs it with the rest of the set, linked or registered)")
    again = runner.invoke(app, [*command[1:], "--yes"], env=env)
    assert again.exit_code == 0, again.output
    assert "+ link       extensions/greet.ts" in again.output
    assert "unlink" not in again.output
    assert {p.name for p in (agent / "extensions").iterdir()} >= {"hello.ts", "mine.ts", "greet.ts"}


def test_add_never_puts_a_skill_inside_a_skill_the_manifest_names(root: Path) -> None:
    """pi stops at a SKILL.md: a skill in that folder would never be found."""
    build_tree(
        root,
        {
            "package.json": json.dumps({"pi": {"skills": ["./skills/librarian"]}}),
            "skills/librarian/SKILL.md": "---\ndescription: finds books\n---\n",
        },
    )
    result = add_item(root, "gamma", "skill", False, False, yes, None)
    assert [a.path for a in result.plan.changes] == [str(root / "skills/gamma/SKILL.md")]
    assert [w for w in result.plan.warnings if "pi package" in w]  # said: the manifest misses it


def test_a_new_prompt_is_one_every_agent_can_take(root: Path) -> None:
    """Its placeholder is one Gemini CLI has too ($ARGUMENTS, its {{args}}): ext's own
    template is never refused there for picking a word ($1)."""
    from installer.hosts.toml_commands import command_text

    add_item(root, "todo", "prompt", False, False, yes, None)
    [r] = discover(root)
    toml = command_text(r, (root / "prompts" / "todo.md").read_text(), "ext install")
    assert "{{args}}" in toml


def test_a_set_on_a_read_only_mount_gets_the_fix_for_that(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-75: `ext add` into a set on a read-only mount showed its plan, then `fix: fix
    the cause and run it again`."""
    import errno
    import os

    from installer.ground.errors import ExtError

    real_open = os.open

    def read_only(path: str, flags: int, *args: int, **kw: object) -> int:
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system", path)
        return real_open(path, flags, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", read_only)
    before = snapshot(root)
    with pytest.raises(ExtError) as err:
        add_item(root, "deploy", "extension", False, False, yes, None)
    assert err.value.fix == (
        f"{root / 'extensions'} is on a read-only file system: remount it read-write"
    )
    assert snapshot(root) == before


@pytest.mark.parametrize("typed", ["skills", "Skill", "skil"])
def test_a_kind_near_one_is_offered_it(root: Path, typed: str) -> None:
    """helper-75: `--kind skills` and `--kind Skill` said `unknown kind` and listed them all."""
    with pytest.raises(UsageError) as err:
        add_item(root, "review", typed, False, False, yes, None)
    assert (err.value.message, err.value.fix) == (
        f"unknown kind {typed!r}",
        "did you mean 'skill'?",
    )


@pytest.mark.parametrize(
    ("args", "made"),
    [
        (["skill:review"], "skills/review/SKILL.md"),
        (["prompt:fix", "--kind", "prompt"], "prompts/fix.md"),
        (["extension:deploy"], "extensions/deploy.ts"),
        (["Skill:review"], "skills/review/SKILL.md"),  # a kind in capitals is the kind
    ],
)
def test_a_kind_label_names_the_kind_as_in_every_other_command(
    root: Path, args: list[str], made: str
) -> None:
    """`ext add skill:review` made extensions/skill:review.ts, an extension no label can name."""
    env = {"EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    done = CliRunner().invoke(app, ["--set", str(root), "add", *args, "--yes"], env=env)
    assert done.exit_code == 0, done.output
    assert [p for p in snapshot(root) if p != "extset.toml" and "." in p.rpartition("/")[2]] == [
        made
    ]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["skills:review"], "did you mean 'skill:review'?"),
        (["a:b"], "has a ':' that names no kind"),
        (["skill:a:b"], "has a ':' that names no kind"),  # never offered as skill:b (helper-78)
        (["skill:review", "--kind", "prompt"], "names a skill, --kind says prompt"),
        (["skill:review", "--kind", "prompt"], "add skill:review`\n"),  # one line, pasteable
    ],
)
def test_a_colon_that_names_no_kind_is_refused(root: Path, args: list[str], said: str) -> None:
    before = snapshot(root)
    env = {"EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    done = CliRunner().invoke(app, ["--set", str(root), "add", *args, "--yes"], env=env)
    assert done.exit_code == 2, done.output
    assert said in done.output
    assert snapshot(root) == before
