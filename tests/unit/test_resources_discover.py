"""discover and the set's own questions over small sets built in tmp: the fields of each item."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from installer.ground.errors import ExitCode, ExtError, UsageError
from installer.host.lines import OLDEST, TODAY
from installer.sets.resources import (
    Resource,
    discover,
    folder_is_item,
    loads_as_one_extension,
    undeclared_kinds,
)
from tests.helpers import build_tree


def package(pi: object) -> str:
    return json.dumps({"name": "p", "pi": pi})


def test_a_conventional_set_gives_each_item_its_source_loads_and_declared_path(
    tmp_path: Path,
) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extensions/notify.ts": "",
            "extensions/gamma/index.js": "",
            "skills/review/SKILL.md": "",
            "prompts/fix.md": "",
            "themes/dark.json": "{}",
        },
    )
    s = str(root)
    assert discover(root) == (
        Resource(
            "extension",
            "gamma",
            "gamma",
            "dir",
            f"{s}/extensions/gamma",
            f"{s}/extensions/gamma",
            (f"{s}/extensions/gamma/index.js",),
            ("extensions/gamma/index.js",),
        ),
        Resource(
            "extension",
            "notify",
            "notify.ts",
            "file",
            f"{s}/extensions/notify.ts",
            f"{s}/extensions/notify.ts",
            (f"{s}/extensions/notify.ts",),
            ("extensions/notify.ts",),
        ),
        Resource(
            "prompt",
            "fix",
            "fix.md",
            "file",
            f"{s}/prompts/fix.md",
            f"{s}/prompts/fix.md",
            (f"{s}/prompts/fix.md",),
            ("prompts/fix.md",),
        ),
        Resource(
            "skill",
            "review",
            "review",
            "dir",
            f"{s}/skills/review",
            f"{s}/skills/review",
            (f"{s}/skills/review/SKILL.md",),
            ("skills/review/SKILL.md",),
        ),
        Resource(
            "theme",
            "dark",
            "dark.json",
            "file",
            f"{s}/themes/dark.json",
            f"{s}/themes/dark.json",
            (f"{s}/themes/dark.json",),
            ("themes/dark.json",),
        ),
    )


def test_a_linked_item_inside_the_set_keeps_its_path_and_resolves_its_real(
    tmp_path: Path,
) -> None:
    root = build_tree(tmp_path / "set", {"shared/tab/index.ts": "", "shared/note.md": ""})
    build_tree(
        root, {"extensions/tab": root / "shared/tab", "prompts/note.md": root / "shared/note.md"}
    )
    s = str(root)
    tab, note = discover(root)
    assert (tab.source, tab.real, tab.declared, tab.unlinkable) == (
        f"{s}/extensions/tab",
        f"{s}/shared/tab",
        ("extensions/tab/index.ts",),
        "",
    )
    assert (note.source, note.real, note.declared, note.unlinkable) == (
        f"{s}/prompts/note.md",
        f"{s}/shared/note.md",
        ("prompts/note.md",),
        "",
    )


def test_a_kind_folder_that_is_a_link_within_the_set_resolves_each_item(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"real-prompts/fix.md": ""})
    build_tree(root, {"prompts": root / "real-prompts"})
    (fix,) = discover(root)
    assert (fix.source, fix.real) == (f"{root}/prompts/fix.md", f"{root}/real-prompts/fix.md")


def test_a_link_out_of_the_set_names_the_item_and_where_it_leads(tmp_path: Path) -> None:
    outside = build_tree(tmp_path / "outside", {"key.ts": ""})
    root = build_tree(tmp_path / "set", {"extensions/key.ts": outside / "key.ts"})
    with pytest.raises(ExtError) as err:
        discover(root)
    assert err.value.exit_code == ExitCode.FAILED
    assert err.value.message == (
        f"extension 'extensions/key.ts' is a link that leads out of the set, to {outside}/key.ts"
    )
    assert err.value.fix == "copy the file into the set instead of linking to it"


def test_a_set_whose_path_is_a_prefix_of_the_target_s_folder_is_still_left(
    tmp_path: Path,
) -> None:
    # /x/set-old is not inside /x/set, though its path starts with it.
    outside = build_tree(tmp_path / "set-old", {"key.ts": ""})
    root = build_tree(tmp_path / "set", {"extensions/key.ts": outside / "key.ts"})
    with pytest.raises(ExtError, match="leads out of the set"):
        discover(root)


@pytest.mark.parametrize("index", ["index.ts", "index.js"])
def test_an_index_file_in_extensions_refuses_the_set_naming_it(tmp_path: Path, index: str) -> None:
    root = build_tree(tmp_path / "set", {f"extensions/{index}": "", "extensions/a.ts": ""})
    with pytest.raises(UsageError) as err:
        discover(root)
    assert err.value.message == (
        f"extensions/{index} makes pi load the whole extensions/ folder as one extension: "
        "every other extension of the set would silently stop loading"
    )
    assert err.value.fix == (
        "rename it (extensions/<name>.ts) or move it into a folder (extensions/<name>/index.ts)"
    )


def test_a_manifest_names_the_items_and_says_which_a_link_cannot_express(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "package.json": package(
                {
                    "extensions": ["./src/a.ts", "./tools/tab/index.ts", "./whole/index.ts"],
                    "skills": ["./sk"],
                    "prompts": ["./cmds/fix.md"],
                }
            ),
            "src/a.ts": "",
            "tools/tab/index.ts": "",
            "tools/tab/package.json": package({"extensions": ["./tab.ts"]}),
            "tools/tab/tab.ts": "",
            "whole/index.ts": "",
            "sk/one/SKILL.md": "",
            "cmds/fix.md": "",
            "extensions/ignored.ts": "",
        },
    )
    s = str(root)
    got = {r.label: r for r in discover(root)}
    assert sorted(got) == ["a", "prompt:fix", "skill:one", "tab", "whole"]
    assert (got["a"].layout, got["a"].declared, got["a"].unlinkable) == (
        "file",
        ("src/a.ts",),
        "",
    )
    # pi loads tools/tab/index.ts itself, not the folder's own entry: a link to the folder would
    # load tab.ts instead; the file is its own item, named after its folder, which a link
    # cannot express.
    tab = got["tab"]
    assert (tab.layout, tab.filename, tab.source) == ("file", "index.ts", f"{s}/tools/tab/index.ts")
    assert tab.unlinkable == (
        "as extensions/index.ts it would make pi load all of extensions/ as one extension"
    )
    assert (got["whole"].layout, got["whole"].source, got["whole"].filename) == (
        "dir",
        f"{s}/whole",
        "whole",
    )
    assert got["whole"].declared == ("whole/index.ts",)
    assert got["skill:one"].declared == ("sk/one/SKILL.md",)
    assert got["prompt:fix"].declared == ("cmds/fix.md",)


def test_two_items_of_a_kind_on_one_place_are_refused_naming_both(tmp_path: Path) -> None:
    # The names differ (`fix`, `fix.md`), the place in the agent dir does not.
    root = build_tree(tmp_path / "set", {"skills/fix.md": "", "skills/col/fix.md/SKILL.md": ""})
    with pytest.raises(UsageError) as err:
        discover(root)
    assert err.value.message == (
        "two skills would land on skills/fix.md: skills/col/fix.md and skills/fix.md"
    )
    assert err.value.fix == "rename or remove one of them in the set"


def test_two_items_of_a_kind_with_one_name_are_refused_naming_both(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"skills/fix.md": "", "skills/col/fix/SKILL.md": ""})
    with pytest.raises(UsageError) as err:
        discover(root)
    assert err.value.message == "two skills are named 'fix': skills/col/fix and skills/fix.md"


def test_a_folder_with_a_dot_beside_other_kinds_is_no_clash(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {"skills/v1.2/SKILL.md": "", "prompts/v1.2.md": "", "extensions/v1.2.ts": ""},
    )
    assert [r.dest for r in discover(root)] == [
        "extensions/v1.2.ts",
        "prompts/v1.2.md",
        "skills/v1.2",
    ]


def test_undeclared_kinds_are_the_folders_a_manifest_leaves_out(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "package.json": package({"extensions": ["./src"], "prompts": []}),
            "src/a.ts": "",
            "extensions/b.ts": "",
            "skills/s/SKILL.md": "",
            "prompts/p.md": "",
        },
    )
    assert undeclared_kinds(root) == ("skills", "prompts")


@pytest.mark.parametrize(
    # `"pi": {}` is a manifest to pi 0.73 (JavaScript calls {} true): tests/fs/test_set_model.py
    "package_json",
    [None, '{"name": "p"}', '{"pi": null}', '{"pi": false}', "{not json"],
    ids=str,
)
def test_a_set_without_a_manifest_leaves_no_kind_undeclared(
    tmp_path: Path, package_json: str | None
) -> None:
    spec: dict[str, str | bytes | Path | None] = {"skills/s/SKILL.md": "", "prompts/p.md": ""}
    if package_json is not None:
        spec["package.json"] = package_json
    assert undeclared_kinds(build_tree(tmp_path / "set", spec)) == ()


@pytest.mark.parametrize(
    ("spec", "one"),
    [
        ({"index.ts": ""}, True),
        ({"main.ts": ""}, True),
        ({"themes/dark.json": "{}"}, False),
        ({"extensions/a.ts": ""}, False),
        ({"package.json": package({"extensions": ["./a.ts"]}), "a.ts": ""}, False),
        ({"package.json": '{"name": "p"}', "a.ts": ""}, True),
    ],
    ids=["index", "bare", "themes", "extensions", "manifest", "no-pi-key"],
)
def test_a_folder_without_manifest_or_kind_folder_loads_as_one_extension(
    tmp_path: Path, spec: dict[str, str | bytes | Path | None], one: bool
) -> None:
    assert loads_as_one_extension(build_tree(tmp_path / "set", spec)) is one


@pytest.mark.parametrize("pi_key", [{}, {"image": "x.png"}])
def test_a_metadata_only_pi_key_and_no_folder_is_one_extension_on_pi_1_x_only(
    tmp_path: Path, pi_key: dict[str, str]
) -> None:
    # 1.x: no manifest and no kind folder, so pi takes the folder for one extension
    # (collectPackageResources returns false); 0.73: a manifest naming nothing.
    root = build_tree(tmp_path / "set", {"package.json": package(pi_key), "main.ts": ""})
    assert loads_as_one_extension(root, TODAY) is True
    assert loads_as_one_extension(root, OLDEST) is False


@pytest.mark.parametrize(
    ("spec", "kind", "item"),
    [
        ({"index.ts": ""}, "extension", True),
        ({"index.js": ""}, "extension", True),
        ({"main.ts": ""}, "extension", False),
        ({"SKILL.md": ""}, "skill", True),
        ({"README.md": ""}, "skill", False),
        ({"SKILL.md/x": ""}, "skill", False),
        ({"SKILL.md": "", "index.ts": ""}, "prompt", False),
        ({"SKILL.md": "", "index.ts": ""}, "theme", False),
    ],
)
def test_a_folder_is_an_item_of_a_kind_when_pi_loads_it_as_one(
    tmp_path: Path, spec: dict[str, str | bytes | Path | None], kind: str, item: bool
) -> None:
    assert folder_is_item(build_tree(tmp_path / "f", spec), kind) is item


def test_a_folder_extension_loads_index_ts_before_index_js(tmp_path: Path) -> None:
    both = build_tree(tmp_path / "both", {"index.ts": "", "index.js": ""})
    js = build_tree(tmp_path / "js", {"index.js": ""})
    none = build_tree(tmp_path / "none", {"main.ts": ""})

    def folder(path: Path, kind: str = "extension") -> Resource:
        return Resource(kind, path.name, path.name, "dir", str(path), str(path))

    assert [folder(p).entry for p in (both, js, none)] == ["index.ts", "index.js", "index.ts"]
    assert folder(js).filters == ("-extensions/js/index.js",)
    assert folder(js).entries() == [f"{js}/index.js"]
    assert folder(both).filters == ("-extensions/both/index.ts",)
    assert folder(js, "skill").filters == ("-skills/js/SKILL.md",)
    assert folder(js, "skill").entries() == [f"{js}/SKILL.md"]
    # A file never asks the disk for an index.
    as_file = Resource("extension", "js", "js", "file", str(js), str(js))
    assert as_file.entry == "index.ts"
    assert as_file.filters == ("-extensions/js",)


def test_the_files_an_item_loads_are_resolved_sorted_and_each_once(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"b.ts": "", "a.ts": ""})
    build_tree(root, {"link.ts": root / "b.ts"})
    loads = (f"{root}/link.ts", f"{root}/b.ts", f"{root}/a.ts")
    r = Resource("extension", "x", "x", "dir", str(root), str(root), loads)
    assert r.entries() == [f"{root}/a.ts", f"{root}/b.ts"]
    linked = Resource("prompt", "l", "link.ts", "file", f"{root}/link.ts")
    assert linked.entries() == [f"{root}/b.ts"]


def test_a_name_with_dots_keeps_all_but_its_suffix(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"extensions/v1.2.ts": "", "prompts/a.b.c.md": ""})
    assert [(r.name, r.filename) for r in discover(root)] == [
        ("v1.2", "v1.2.ts"),
        ("a.b.c", "a.b.c.md"),
    ]


def test_a_manifest_file_without_a_suffix_is_named_by_its_whole_name(tmp_path: Path) -> None:
    # pi imports any file named as an extension; a prompt it takes only as .md (fs tests).
    root = build_tree(
        tmp_path / "set", {"package.json": package({"extensions": ["./bin/fix"]}), "bin/fix": ""}
    )
    assert [(r.name, r.filename, r.layout) for r in discover(root)] == [("fix", "fix", "file")]


@pytest.mark.parametrize(
    ("rel", "what"),
    [("extensions/-rf.ts", "extension name"), ("prompts/-rf.md", "prompt name")],
)
def test_a_bad_name_in_a_set_says_which_kind_of_item_it_is(
    tmp_path: Path, rel: str, what: str
) -> None:
    with pytest.raises(UsageError) as err:
        discover(build_tree(tmp_path / "set", {rel: ""}))
    assert err.value.message == f"{what} '-rf' starts with '-'"


def test_a_manifest_item_outside_the_set_is_an_item_link_mode_cannot_express(
    tmp_path: Path,
) -> None:
    shared = build_tree(tmp_path / "shared", {"helper.ts": ""})
    root = build_tree(
        tmp_path / "set", {"package.json": package({"extensions": ["../shared/helper.ts"]})}
    )
    (helper,) = discover(root)
    assert (helper.source, helper.real) == (f"{shared}/helper.ts", f"{shared}/helper.ts")
    assert helper.declared == ("../shared/helper.ts",)
    assert helper.loads == (f"{shared}/helper.ts",)
    assert helper.unlinkable == f"it lies outside the set ({shared}/helper.ts)"


def test_a_linked_item_carries_the_files_pi_loads_for_it(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"shared/tab/index.ts": ""})
    build_tree(root, {"extensions/tab": root / "shared/tab"})
    (tab,) = discover(root)
    assert tab.loads == (f"{root}/extensions/tab/index.ts",)


def test_a_folder_extension_whose_package_names_a_file_outside_it_cannot_be_linked(
    tmp_path: Path,
) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extensions/tab/package.json": package({"extensions": ["../../lib/tab.ts"]}),
            "lib/tab.ts": "",
        },
    )
    (tab,) = discover(root)
    assert (tab.layout, tab.declared) == ("dir", ("lib/tab.ts",))
    assert tab.unlinkable == "its package.json names an entry outside its folder"


def test_a_manifest_that_leaves_out_part_of_a_folder_says_a_link_would_load_it_all(
    tmp_path: Path,
) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "package.json": package({"extensions": ["./tools/tab", "!**/more.ts"]}),
            "tools/tab/package.json": package({"extensions": ["./tab.ts", "./more.ts"]}),
            "tools/tab/tab.ts": "",
            "tools/tab/more.ts": "",
        },
    )
    (tab,) = discover(root)
    assert tab.declared == ("tools/tab/tab.ts",)
    assert tab.unlinkable == (
        "the manifest leaves out some of its folder's entries; a link would load them all"
    )


@pytest.mark.parametrize("index", ["index.ts", "index.js"])
def test_a_manifest_folder_index_is_the_folder_when_pi_loads_just_that(
    tmp_path: Path, index: str
) -> None:
    root = build_tree(
        tmp_path / "set",
        {"package.json": package({"extensions": [f"./whole/{index}"]}), f"whole/{index}": ""},
    )
    (whole,) = discover(root)
    assert (whole.name, whole.filename, whole.layout, whole.unlinkable) == (
        "whole",
        "whole",
        "dir",
        "",
    )


@pytest.mark.parametrize("index", ["index.ts", "index.js"])
def test_a_manifest_folder_index_pi_loads_instead_of_the_folder_s_own_entry_stays_a_file(
    tmp_path: Path, index: str
) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "package.json": package({"extensions": [f"./tools/tab/{index}"]}),
            "tools/tab/package.json": package({"extensions": ["./tab.ts"]}),
            f"tools/tab/{index}": "",
            "tools/tab/tab.ts": "",
        },
    )
    (tab,) = discover(root)
    assert (tab.name, tab.filename, tab.layout) == ("tab", index, "file")
    assert tab.unlinkable == (
        f"as extensions/{index} it would make pi load all of extensions/ as one extension"
    )


def test_a_manifest_file_a_folder_declares_as_its_entry_stays_that_file(tmp_path: Path) -> None:
    # Only an index file stands for its folder; another entry is linked as itself.
    root = build_tree(
        tmp_path / "set",
        {
            "package.json": package({"extensions": ["./tools/tab/tab.ts"]}),
            "tools/tab/package.json": package({"extensions": ["./tab.ts"]}),
            "tools/tab/tab.ts": "",
        },
    )
    (tab,) = discover(root)
    assert (tab.name, tab.filename, tab.layout, tab.source) == (
        "tab",
        "tab.ts",
        "file",
        f"{root}/tools/tab/tab.ts",
    )


def test_a_sibling_whose_name_the_set_s_name_begins_with_is_outside_the_set(
    tmp_path: Path,
) -> None:
    outside = build_tree(tmp_path / "set", {"key.ts": ""})
    root = build_tree(tmp_path / "setX", {"extensions/key.ts": outside / "key.ts"})
    with pytest.raises(ExtError, match="leads out of the set"):
        discover(root)


@pytest.mark.parametrize(
    "filename", ["a\u202eb.ts", "zero\u200bwidth.ts", "csi\x9b2K.ts", "esc\x1b[2K.ts"]
)
def test_a_disguised_file_name_is_refused_naming_the_file_to_rename(
    tmp_path: Path, filename: str
) -> None:
    root = build_tree(tmp_path / "set", {f"extensions/{filename}": "export default () => {};"})
    with pytest.raises(UsageError) as err:
        discover(root)
    assert err.value.fix == f"rename {root / 'extensions' / filename} to a plain name like 'notify'"


def test_a_manifest_s_extension_pi_would_not_load_from_the_agent_dir_is_no_link(
    tmp_path: Path,
) -> None:
    """pi imports any file a manifest names, but only .ts and .js from extensions/."""
    root = build_tree(
        tmp_path / "set",
        {"package.json": package({"extensions": ["./a.mjs", "./b.js", "./c.ts"]}),
         "a.mjs": "", "b.js": "", "c.ts": ""},
    )  # fmt: skip
    got = {r.filename: r.unlinkable for r in discover(root)}
    assert got == {
        "a.mjs": "pi loads only .ts and .js files from an agent dir's extensions/",
        "b.js": "",
        "c.ts": "",
    }
