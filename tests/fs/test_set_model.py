"""The set model on disk: pi packages, declared entries, skill collections, refusals.

Each expectation here was held against pi 0.73.1's own loader (DefaultResourceLoader) for the
same layout; tests/conformance does that automatically.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.ground.context import Env, resolve
from installer.ground.errors import ExitCode, UsageError
from installer.host.lines import OLDEST, TODAY, PiLine
from installer.links.states import items
from installer.sets.resources import discover, undeclared_kinds
from tests.helpers import build_tree, yes

EXT = "export default function () {}\n"


def found(root: Path, line: PiLine = TODAY) -> dict[str, tuple[str, str, list[str]]]:
    """label -> (filename, layout, loaded files relative to root)."""
    return {
        r.label: (r.filename, r.layout, [str(Path(p).relative_to(root)) for p in r.entries()])
        for r in discover(root, line)
    }


def package(pi: object, **files: str) -> dict[str, str | bytes | Path | None]:
    return {"package.json": json.dumps({"name": "p", "pi": pi}), **files}


def test_a_pi_package_is_what_its_manifest_declares(tmp_path: Path) -> None:
    manifest = {
        "extensions": ["./src/*.ts", "./tools", "!**/skipme.ts"],
        "skills": ["./agent-skills"],
        "prompts": ["./cmds"],
        "themes": ["./look/*.json"],
    }
    files = {
        "src/alpha.ts": EXT,
        "src/skipme.ts": EXT,
        "src/lib/util.ts": EXT,  # * stays in src/
        "tools/beta.js": EXT,
        "tools/tab/package.json": '{"pi": {"extensions": ["./tab.ts"]}}',
        "tools/tab/tab.ts": EXT,
        "tools/lib/helper.ts": EXT,  # a folder without entries
        "agent-skills/col/one/SKILL.md": "",
        "agent-skills/col/notes.md": "",  # .md below the top is not a skill
        "agent-skills/solo.md": "",
        "cmds/fix.md": "",
        "cmds/sub/review.md": "",
        "look/dusk.json": "{}",
        "extensions/ignored.ts": EXT,  # the manifest, not the folders, decides
        "node_modules/dep/index.ts": EXT,
    }
    root = build_tree(tmp_path / "set", package(manifest, **files))
    assert found(root) == {
        "alpha": ("alpha.ts", "file", ["src/alpha.ts"]),
        "beta": ("beta.js", "file", ["tools/beta.js"]),
        "tab": ("tab", "dir", ["tools/tab/tab.ts"]),
        "skill:one": ("one", "dir", ["agent-skills/col/one/SKILL.md"]),
        "skill:solo": ("solo.md", "file", ["agent-skills/solo.md"]),
        "prompt:fix": ("fix.md", "file", ["cmds/fix.md"]),
        "prompt:review": ("review.md", "file", ["cmds/sub/review.md"]),
        "theme:dusk": ("dusk.json", "file", ["look/dusk.json"]),
    }
    assert undeclared_kinds(root) == ()


def test_a_manifest_without_a_kind_loads_none_of_it(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        package({"extensions": ["./src"]}, **{"src/a.ts": EXT, "skills/s/SKILL.md": ""}),
    )
    assert list(found(root)) == ["a"]
    assert undeclared_kinds(root) == ("skills",)  # pi falls back to it under a filter


def test_a_package_json_without_pi_leaves_the_conventional_layout(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"package.json": '{"name": "x"}', "extensions/a.ts": EXT})
    assert list(found(root)) == ["a"]
    assert undeclared_kinds(root) == ()


@pytest.mark.parametrize("pi", [{}, [], {"image": "x.png"}])
def test_on_pi_0_73_a_pi_value_javascript_calls_true_is_a_manifest_even_naming_nothing(
    tmp_path: Path, pi: object
) -> None:
    """pi 0.73's `if (manifest)`: {} and [] are true in JavaScript; pi then loads no folder."""
    root = build_tree(tmp_path / "set", package(pi, **{"extensions/a.ts": EXT}))
    assert found(root, OLDEST) == {}
    assert undeclared_kinds(root, OLDEST) == ("extensions",)


@pytest.mark.parametrize("pi", [{}, [], {"image": "x.png"}])
def test_on_pi_1_x_a_pi_key_of_metadata_only_leaves_the_conventional_layout(
    tmp_path: Path, pi: object
) -> None:
    """pi 1.x: no resource field, no manifest (hasManifestResourceFields): the folders load."""
    root = build_tree(tmp_path / "set", package(pi, **{"extensions/a.ts": EXT}))
    assert list(found(root, TODAY)) == ["a"]
    assert undeclared_kinds(root, TODAY) == ()


@pytest.mark.parametrize("text", ['{"pi": false, "x": 1}', '{"pi": "", "x": 1}', '{"pi": 0}'])
def test_a_pi_value_javascript_calls_false_leaves_the_conventional_layout(
    tmp_path: Path, text: str
) -> None:
    root = build_tree(tmp_path / "set", {"package.json": text, "extensions/a.ts": EXT})
    assert list(found(root)) == ["a"]


def test_a_package_json_json_parse_refuses_has_no_manifest(tmp_path: Path) -> None:
    """Python reads NaN; pi's JSON.parse throws, and pi then sees no manifest at all. ext
    says so and stops (helper-32: read as a set without a manifest, a typo made every link
    of it stale, and an install pruned them all)."""
    text = '{"pi": {"extensions": ["./src"]}, "n": NaN}'
    root = build_tree(tmp_path / "set", {"package.json": text, "extensions/a.ts": EXT})
    with pytest.raises(UsageError, match="pi reads no manifest from it"):
        list(found(root))


def test_a_manifest_file_without_its_kind_s_suffix_is_no_skill_prompt_or_theme(
    tmp_path: Path,
) -> None:
    """pi takes only .md skills and prompts and .json themes from a manifest's paths."""
    manifest = {"skills": ["./sk/*"], "prompts": ["./pr/*"], "themes": ["./th/*"]}
    files = {"sk/a.md": "", "sk/notes.txt": "", "pr/b.md": "", "pr/README": ""}
    files |= {"th/c.json": "{}", "th/c.json.bak": "{}"}
    root = build_tree(tmp_path / "set", package(manifest, **files))
    assert list(found(root)) == ["prompt:b", "skill:a", "theme:c"]


def test_a_manifest_extension_pi_cannot_find_in_an_agent_dir_is_not_linkable(
    tmp_path: Path,
) -> None:
    """pi imports any file a manifest names; an agent dir's extensions/ has only .ts and .js."""
    manifest = {"extensions": ["./src/*"]}
    root = build_tree(tmp_path / "set", package(manifest, **{"src/a.ts": EXT, "src/b.mjs": EXT}))
    why = {r.label: r.unlinkable for r in discover(root)}
    assert why == {"a": "", "b": "pi loads only .ts and .js files from an agent dir's extensions/"}


def test_conventional_skill_collections_root_files_and_nested_prompts(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "skills/col/a/SKILL.md": "",
            "skills/col/a/inner/SKILL.md": "",  # inside a skill: part of it, not another
            "skills/col/b/SKILL.md": "",
            "skills/top.md": "",
            "prompts/sub/deep.md": "",
            "themes/dark/night.json": "{}",
        },
    )
    assert found(root) == {
        "skill:a": ("a", "dir", ["skills/col/a/SKILL.md"]),
        "skill:b": ("b", "dir", ["skills/col/b/SKILL.md"]),
        "skill:top": ("top.md", "file", ["skills/top.md"]),
        "prompt:deep": ("deep.md", "file", ["prompts/sub/deep.md"]),
        "theme:night": ("night.json", "file", ["themes/dark/night.json"]),
    }


def test_a_folder_extension_loads_its_declared_entries(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extensions/tab/package.json": '{"pi": {"extensions": ["./tab.ts", "./more.ts"]}}',
            "extensions/tab/tab.ts": EXT,
            "extensions/tab/more.ts": EXT,
            "extensions/tab/index.ts": EXT,  # declared entries win over index.ts
        },
    )
    (r,) = discover(root)
    assert [Path(p).name for p in r.entries()] == ["more.ts", "tab.ts"]
    assert r.filters == ("-extensions/tab/tab.ts", "-extensions/tab/more.ts")


@pytest.mark.parametrize("index", ["index.ts", "index.js"])
def test_extensions_index_is_refused_with_the_reason(tmp_path: Path, index: str) -> None:
    root = build_tree(tmp_path / "set", {f"extensions/{index}": EXT, "extensions/a.ts": EXT})
    with pytest.raises(UsageError) as err:
        discover(root)
    assert f"extensions/{index}" in err.value.message
    assert "one extension" in err.value.message
    assert err.value.fix and "extensions/<name>/index.ts" in err.value.fix


@pytest.mark.parametrize(
    ("tree", "both"),
    [
        (
            {"prompts/a/fix.md": "", "prompts/b/fix.md": ""},
            ("prompts/a/fix.md", "prompts/b/fix.md"),
        ),
        (  # names differ (`fix`, `fix.md`), the place does not
            {"skills/fix.md": "", "skills/col/fix.md/SKILL.md": ""},
            ("skills/fix.md", "skills/col/fix.md"),
        ),
    ],
)
def test_two_items_landing_on_one_place_are_refused_naming_both(
    tmp_path: Path, tree: dict[str, str | bytes | Path | None], both: tuple[str, str]
) -> None:
    root = build_tree(tmp_path / "set", tree)
    with pytest.raises(UsageError) as err:
        discover(root)
    assert all(path in err.value.message for path in both)
    assert err.value.exit_code == ExitCode.USAGE


def _ctx(tmp_path: Path, root: Path):  # type: ignore[no-untyped-def]
    agent = build_tree(tmp_path / "agent", {"settings.json": "{}\n"})
    return resolve(Env(cwd=tmp_path), root, agent)


def test_link_mode_refuses_what_links_cannot_express_and_writes_nothing(tmp_path: Path) -> None:
    build_tree(tmp_path / "shared", {"helper.ts": EXT})
    manifest = {"extensions": ["./index.ts", "../shared/helper.ts"]}
    root = build_tree(tmp_path / "set", package(manifest, **{"index.ts": EXT}))
    ctx = _ctx(tmp_path, root)
    with pytest.raises(UsageError) as err:
        install(ctx, Install(mode="link"), yes)
    assert err.value.exit_code == ExitCode.USAGE
    assert "outside the set" in err.value.message and "as one extension" in err.value.message
    assert err.value.fix and "--mode register" in err.value.fix
    assert sorted(p.name for p in ctx.agent_dir.iterdir()) == ["settings.json"]
    _, listed = items(ctx)  # still link mode: `ext list` says why
    assert all(i.note and i.note.startswith("link mode cannot install it") for i in listed)
    install(ctx, Install(mode="register"), yes)
    _, listed = items(ctx)
    assert {(i.resource.name, i.state) for i in listed} == {
        ("set", "enabled"),  # `./index.ts` is named after its folder
        ("helper", "enabled"),
    }


def test_register_mode_filters_every_kind_by_its_declared_path(tmp_path: Path) -> None:
    manifest = {"extensions": ["./src"], "skills": ["./sk"], "prompts": ["./pr"]}
    files = {"src/a.ts": EXT, "src/b.ts": EXT, "sk/one/SKILL.md": "", "pr/p.md": ""}
    root = build_tree(tmp_path / "set", package(manifest, **files, **{"themes/t.json": "{}"}))
    ctx = _ctx(tmp_path, root)
    install(
        ctx,
        Install(
            skip=(
                "a",
                "skill:one",
                "prompt:p",
            ),
            mode="register",
        ),
        yes,
    )
    (entry,) = json.loads((ctx.agent_dir / "settings.json").read_text())["packages"]
    assert entry == {
        "source": str(root),
        "extensions": ["-src/a.ts"],
        "skills": ["-sk/one/SKILL.md"],
        "prompts": ["-pr/p.md"],
        "themes": [],  # undeclared: pi would load themes/ once the entry is an object
    }
    _, listed = items(ctx)
    assert {i.resource.label: i.state for i in listed} == {
        "a": "not-installed",  # left out, as link mode says: ext's filters, no one's switch
        "b": "enabled",
        "skill:one": "not-installed",
        "prompt:p": "not-installed",
    }
    install(ctx, Install(mode="register"), yes)
    (entry,) = json.loads((ctx.agent_dir / "settings.json").read_text())["packages"]
    assert entry == str(root)  # no filter left: back to the plain string, themes block gone


def test_register_mode_refuses_a_set_pi_would_take_for_one_extension(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "empty"\n'})
    ctx = _ctx(tmp_path, root)
    with pytest.raises(UsageError) as err:
        install(ctx, Install(mode="register"), yes)
    assert "one extension" in err.value.message and err.value.fix
    assert json.loads((ctx.agent_dir / "settings.json").read_text()) == {}
    build_tree(root, {"prompts": None})  # an empty kind folder is enough for pi
    assert install(ctx, Install(mode="register"), yes).applied


def test_a_manifest_folder_index_is_linked_as_its_folder(tmp_path: Path) -> None:
    manifest = {"extensions": ["./code-actions/index.ts", "./src/tool.ts"]}
    files = {"code-actions/index.ts": EXT, "code-actions/lib.ts": EXT, "src/tool.ts": EXT}
    root = build_tree(tmp_path / "set", package(manifest, **files))
    assert found(root) == {
        "code-actions": ("code-actions", "dir", ["code-actions/index.ts"]),
        "tool": ("tool.ts", "file", ["src/tool.ts"]),
    }
    ctx = _ctx(tmp_path, root)
    assert install(ctx, Install(mode="link"), yes).applied
    assert (ctx.agent_dir / "extensions/code-actions").resolve() == root / "code-actions"
    _, listed = items(ctx)
    assert {i.resource.name: i.state for i in listed} == {
        "code-actions": "enabled",
        "tool": "enabled",
    }


def test_globs_reach_where_pi_s_glob_does(tmp_path: Path) -> None:
    build_tree(tmp_path / "shared", {"one.ts": EXT, "sub/two.ts": EXT})
    manifest = {"extensions": ["../shared/*.ts", "./a/*/x*.ts", "./deep/**/*.js"]}
    files = {"a/one/x1.ts": EXT, "a/x0.ts": EXT, "a/two/y.ts": EXT, "deep/k/l/m.js": EXT}
    root = build_tree(tmp_path / "set", package(manifest, **files))
    got = {r.name: r for r in discover(root)}
    assert sorted(got) == ["m", "one", "x1"]
    assert got["one"].unlinkable.startswith("it lies outside the set")
    assert got["one"].filters == ("-../shared/one.ts",)
    assert not got["x1"].unlinkable


def test_ignore_files_in_a_kind_folder_leave_out_what_pi_leaves_out(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extensions/.gitignore": "*.js\nold/\n",
            "extensions/a.ts": EXT,
            "extensions/b.js": EXT,
            "extensions/old/index.ts": EXT,
            "prompts/.gitignore": "drafts/\n*.wip.md\n!keep.wip.md\n",
            "prompts/p.md": "",
            "prompts/drafts/d.md": "",
            "prompts/x.wip.md": "",
            "prompts/keep.wip.md": "",
            "prompts/sub/.ignore": "gone.md\n",  # anchored to its folder, as pi prefixes it
            "prompts/sub/gone.md": "",
            "prompts/sub/stay.md": "",
            "skills/.fdignore": "hidden\n",
            "skills/hidden/SKILL.md": "",
            "skills/col/.gitignore": "SKILL.md\n",  # col is no skill, its inner one is
            "skills/col/SKILL.md": "",
            "skills/col/inner/SKILL.md": "",
        },
    )
    assert sorted(found(root)) == ["a", "prompt:keep.wip", "prompt:p", "prompt:stay", "skill:inner"]


def test_manifest_index_files_are_named_after_their_folders(tmp_path: Path) -> None:
    # Each folder's own package.json names another entry: a link to the folder would load
    # that one, so these stay files, for register mode only.
    own = '{"pi": {"extensions": ["./main.ts"]}}'
    manifest = {"extensions": ["./a/index.ts", "./b/index.ts"]}
    files = {f"{x}/{f}": EXT for x in "ab" for f in ("index.ts", "main.ts")}
    root = build_tree(tmp_path / "set", package(manifest, **files, **{"a/package.json": own}))
    build_tree(root, {"b/package.json": own})
    got = {r.name: r for r in discover(root)}
    assert sorted(got) == ["a", "b"]
    assert all(r.unlinkable and r.filename == "index.ts" for r in got.values())
    assert got["b"].filters == ("-b/index.ts",)


def test_a_conventional_set_reads_no_package_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The no-op path of a conventional set pays a stat for the model, never a JSON parse."""
    import builtins

    opened: list[str] = []
    real_open = builtins.open

    def watching(file: object, *args: object, **kw: object) -> object:
        opened.append(str(file))
        return real_open(file, *args, **kw)  # type: ignore[call-overload]

    tree = {"extensions/a.ts": EXT, "extensions/b/index.ts": EXT, "skills/s/SKILL.md": "x"}
    conventional = build_tree(tmp_path / "conventional", tree)
    declared = build_tree(
        tmp_path / "declared",
        {**tree, "extensions/c/package.json": json.dumps({"pi": {"extensions": ["./c.ts"]}}),
         "extensions/c/c.ts": EXT},
    )  # fmt: skip
    real_os_open = os.open

    def watching_os(path: object, *args: object, **kw: object) -> int:
        opened.append(str(path))  # the readers of a set's files open with os.open (readfile.py)
        return real_os_open(path, *args, **kw)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(builtins, "open", watching)
    monkeypatch.setattr(os, "open", watching_os)
    discover(conventional)
    assert not [p for p in opened if p.endswith("package.json")]
    discover(declared)  # and the watch does see a package.json that is there
    assert [Path(p).name for p in opened if p.endswith("package.json")] == ["package.json"]
