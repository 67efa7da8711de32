"""pi's rules for the items of a package, item by item: each Found as pi would meet it.

tests/fs/test_links_discover.py and test_set_model.py check what a set's resources are; these
check the items pirules hands to them: their layout, their entries, and whether a manifest
pattern left some out (`partial`) or a link lies on the way down (`linked`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from installer.host.lines import LINES, OLDEST, TODAY, PiLine
from installer.sets.pirules import Found, folder_items, manifest_items, path_items, read_manifest
from installer.sets.resources import discover
from tests.helpers import build_tree


def test_a_package_json_that_is_no_object_is_no_manifest(tmp_path: Path) -> None:
    for text in ("[1, 2]", '"pi"', "3"):
        (tmp_path / "package.json").write_text(text)
        assert read_manifest(str(tmp_path)) is None


@pytest.mark.parametrize("value", ["true", "1", "{}", "[]", '{"image": "x.png"}'])
def test_on_pi_0_73_a_manifest_is_any_value_javascript_takes_as_true(
    tmp_path: Path, value: str
) -> None:
    # pi 0.73: `if (manifest)`: a manifest that names nothing, so the folders are not searched
    root = build_tree(tmp_path, {"package.json": f'{{"pi": {value}}}', "extensions/a.ts": ""})
    assert read_manifest(str(root), OLDEST) is not None
    assert discover(root, OLDEST) == ()


@pytest.mark.parametrize(
    "value",
    [
        "true",
        "[]",
        "{}",
        '{"image": "x.png", "video": "x.mp4", "changelogPath": "NEWS.md"}',
        '{"extensions": "./extensions/a.ts"}',  # not a list: readPiManifest drops it
        '{"extensions": ["./extensions/a.ts", 1]}',  # not all strings: dropped too
    ],
)
def test_on_pi_1_x_a_pi_key_without_resource_fields_leaves_the_folders(
    tmp_path: Path, value: str
) -> None:
    # pi 1.x: only a `pi` object with a resource field is a manifest (hasManifestResourceFields)
    root = build_tree(tmp_path, {"package.json": f'{{"pi": {value}}}', "extensions/a.ts": ""})
    assert read_manifest(str(root), TODAY) is None
    assert [r.name for r in discover(root, TODAY)] == ["a"]


@pytest.mark.parametrize("value", ['{"extensions": []}', '{"skills": ["./skills"]}'])
def test_on_pi_1_x_one_resource_field_makes_a_manifest(tmp_path: Path, value: str) -> None:
    # named, even as an empty list: the folders are not searched for any kind
    root = build_tree(tmp_path, {"package.json": f'{{"pi": {value}}}', "extensions/a.ts": ""})
    assert read_manifest(str(root), TODAY) is not None
    assert discover(root, TODAY) == discover(root, OLDEST) == ()


def test_a_folder_extension_s_own_pi_key_is_read_alike_by_both_lines(tmp_path: Path) -> None:
    # resolveExtensionEntries (0.73 and 1.x): only `pi.extensions` counts, else index.ts
    root = build_tree(
        tmp_path,
        {
            "extensions/meta/package.json": '{"pi": {"image": "x.png"}}',
            "extensions/meta/index.ts": "",
            "extensions/empty/package.json": '{"pi": {}}',
            "extensions/empty/index.js": "",
        },
    )
    for line in (OLDEST, TODAY):
        assert [(r.name, r.entries()) for r in discover(root, line)] == [
            ("empty", [f"{root}/extensions/empty/index.js"]),
            ("meta", [f"{root}/extensions/meta/index.ts"]),
        ]


@pytest.mark.parametrize("value", ["null", "false", "0", '""'])
@pytest.mark.parametrize("line", LINES, ids=lambda line: line.name)
def test_a_manifest_javascript_takes_as_false_leaves_the_folders(
    tmp_path: Path, value: str, line: PiLine
) -> None:
    root = build_tree(tmp_path, {"package.json": f'{{"pi": {value}}}', "extensions/a.ts": ""})
    assert read_manifest(str(root), line) is None
    assert [r.name for r in discover(root, line)] == ["a"]


def test_a_folder_named_is_one_extension_when_it_has_an_entry(tmp_path: Path) -> None:
    root = str(build_tree(tmp_path, {"tool/index.ts": "", "tool/lib.ts": ""}))
    assert manifest_items(["./tool"], root, "extensions") == [
        Found(f"{root}/tool", "dir", (f"{root}/tool/index.ts",))
    ]


def test_extension_files_and_folders_are_items_not_partial_not_linked(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path,
        {
            "extensions/a.ts": "",
            "extensions/b/index.js": "",
            "extensions/node_modules/index.ts": "",
        },
    )
    ext = f"{root}/extensions"
    assert folder_items(ext, "extensions") == [
        Found(f"{ext}/a.ts", "file", (f"{ext}/a.ts",), False, False),
        Found(f"{ext}/b", "dir", (f"{ext}/b/index.js",), False, False),
    ]


def test_linked_extensions_say_so(tmp_path: Path) -> None:
    elsewhere = build_tree(tmp_path / "elsewhere", {"a.ts": "", "b/index.ts": ""})
    ext = str(
        build_tree(tmp_path / "set/extensions", {"a.ts": elsewhere / "a.ts", "b": elsewhere / "b"})
    )
    assert folder_items(ext, "extensions") == [
        Found(f"{ext}/a.ts", "file", (f"{ext}/a.ts",), False, True),
        Found(f"{ext}/b", "dir", (f"{ext}/b/index.ts",), False, True),
    ]


def test_an_ignored_extension_hides_only_itself(tmp_path: Path) -> None:
    ext = str(build_tree(tmp_path, {".gitignore": "a.ts\n", "a.ts": "", "b.ts": ""}))
    assert [f.path for f in folder_items(ext, "extensions")] == [f"{ext}/b.ts"]


@pytest.mark.parametrize("key", ["extensions", "prompts"])
def test_a_link_that_loops_hides_only_itself(tmp_path: Path, key: str) -> None:
    """A link to itself cannot be stat'ed (ELOOP): pi skips it and goes on with the rest."""
    folder = tmp_path / key
    folder.mkdir()
    os.symlink(
        "a.md" if key == "prompts" else "a.ts", folder / ("a.md" if key == "prompts" else "a.ts")
    )
    name = "b.md" if key == "prompts" else "b.ts"
    (folder / name).write_text("")
    assert [f.path for f in folder_items(str(folder), key)] == [f"{folder}/{name}"]


def test_skills_and_prompts_below_a_link_are_linked(tmp_path: Path) -> None:
    elsewhere = build_tree(
        tmp_path / "elsewhere", {"more/p.md": "", "s.md": "", "deep/x/SKILL.md": ""}
    )
    root = build_tree(
        tmp_path / "set",
        {
            "prompts/own.md": "",
            "prompts/sub": elsewhere / "more",
            "skills/top.md": "",
            "skills/s.md": elsewhere / "s.md",
            "skills/deep": elsewhere / "deep",
        },
    )
    prompts, skills = f"{root}/prompts", f"{root}/skills"
    assert folder_items(prompts, "prompts") == [
        Found(f"{prompts}/own.md", "file", (f"{prompts}/own.md",), linked=False),
        Found(f"{prompts}/sub/p.md", "file", (f"{prompts}/sub/p.md",), linked=True),
    ]
    assert folder_items(skills, "skills") == [
        Found(f"{skills}/deep/x", "dir", (f"{skills}/deep/x/SKILL.md",), linked=True),
        Found(f"{skills}/s.md", "file", (f"{skills}/s.md",), linked=True),
        Found(f"{skills}/top.md", "file", (f"{skills}/top.md",), linked=False),
    ]


def test_a_skill_folder_or_file_named_is_one_item_not_linked(tmp_path: Path) -> None:
    root = str(build_tree(tmp_path, {"s/SKILL.md": "", "t.md": ""}))
    assert path_items(f"{root}/s", "skills") == [Found(f"{root}/s", "dir", (f"{root}/s/SKILL.md",))]
    assert path_items(f"{root}/s/SKILL.md", "skills") == [
        Found(f"{root}/s", "dir", (f"{root}/s/SKILL.md",))
    ]
    assert path_items(f"{root}/t.md", "skills") == [
        Found(f"{root}/t.md", "file", (f"{root}/t.md",))
    ]


def test_a_prompt_named_skill_md_is_a_file_of_its_own(tmp_path: Path) -> None:
    root = str(build_tree(tmp_path, {"p/SKILL.md": ""}))
    assert path_items(f"{root}/p/SKILL.md", "prompts") == [
        Found(f"{root}/p/SKILL.md", "file", (f"{root}/p/SKILL.md",))
    ]


def test_a_pattern_first_in_the_manifest_does_not_end_its_paths(tmp_path: Path) -> None:
    root = str(build_tree(tmp_path, {"a.ts": "", "b.ts": ""}))
    found = manifest_items(["!b.ts", "./a.ts", "./b.ts"], root, "extensions")
    assert found == [Found(f"{root}/a.ts", "file", (f"{root}/a.ts",))]


def test_a_question_mark_makes_a_glob(tmp_path: Path) -> None:
    root = str(build_tree(tmp_path, {"x1.ts": "", "x2.ts": "", "y.ts": ""}))
    assert [f.path for f in manifest_items(["x?.ts"], root, "extensions")] == [
        f"{root}/x1.ts",
        f"{root}/x2.ts",
    ]


def test_patterns_are_relative_to_the_package_root(tmp_path: Path) -> None:
    # not the working folder (the tests run in tmp_path): the root is one below it
    root = str(build_tree(tmp_path / "set", {"lib/a.ts": "", "other/a.ts": ""}))
    found = manifest_items(["./lib/a.ts", "./other/a.ts", "!lib/a.ts"], root, "extensions")
    assert [f.path for f in found] == [f"{root}/other/a.ts"]


def test_a_pattern_that_keeps_every_entry_leaves_the_item_whole(tmp_path: Path) -> None:
    root = str(
        build_tree(
            tmp_path,
            {
                "pkg/package.json": '{"pi": {"extensions": ["./main.ts", "./other.ts"]}}',
                "pkg/main.ts": "",
                "pkg/other.ts": "",
                "solo/index.ts": "",
            },
        )
    )
    pkg = f"{root}/pkg"
    assert manifest_items(["./pkg", "./solo", "!other.ts"], root, "extensions") == [
        Found(pkg, "dir", (f"{pkg}/main.ts",), partial=True),
        Found(f"{root}/solo", "dir", (f"{root}/solo/index.ts",), partial=False),
    ]


def test_a_file_met_twice_stays_with_the_first_item_that_named_it(tmp_path: Path) -> None:
    root = str(
        build_tree(
            tmp_path,
            {
                "pkg/package.json": '{"pi": {"extensions": ["./main.ts", "./other.ts"]}}',
                "pkg/main.ts": "",
                "pkg/other.ts": "",
                "solo/index.ts": "",
            },
        )
    )
    pkg = f"{root}/pkg"
    assert manifest_items(["./pkg/main.ts", "./pkg", "./solo", "./solo"], root, "extensions") == [
        Found(f"{pkg}/main.ts", "file", (f"{pkg}/main.ts",)),
        Found(pkg, "dir", (f"{pkg}/other.ts",), partial=True),
        Found(f"{root}/solo", "dir", (f"{root}/solo/index.ts",), partial=False),
    ]
