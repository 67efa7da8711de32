"""A manifest's globs and a folder's ignore files, over small trees built in tmp."""

from __future__ import annotations

from pathlib import Path

from installer.sets.pipatterns import Ignore, glob, minimatch
from tests.helpers import build_tree


def test_a_glob_matches_in_its_literal_folder_only_sorted_and_without_dot_names(
    tmp_path: Path,
) -> None:
    root = build_tree(
        tmp_path / "set",
        {"src/b.ts": "", "src/a.ts": "", "src/.h.ts": "", "src/sub/c.ts": "", "src/x.md": ""},
    )
    assert glob("./src/*.ts", str(root)) == [f"{root}/src/a.ts", f"{root}/src/b.ts"]
    assert glob("src/*", str(root)) == [
        f"{root}/src/a.ts",
        f"{root}/src/b.ts",
        f"{root}/src/sub",
        f"{root}/src/x.md",
    ]


def test_a_double_star_glob_reaches_every_depth_but_not_into_dot_folders(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {"src/a.ts": "", "src/sub/deep/c.ts": "", "src/.git/d.ts": "", "src/sub/e.md": ""},
    )
    assert glob("src/**/*.ts", str(root)) == [f"{root}/src/a.ts", f"{root}/src/sub/deep/c.ts"]


def test_a_glob_reaches_one_level_per_folder_of_its_pattern(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"a/x/f.ts": "", "a/x/y/g.ts": "", "a/h.ts": ""})
    assert glob("a/*/*.ts", str(root)) == [f"{root}/a/x/f.ts"]


def test_a_glob_may_start_above_the_set(tmp_path: Path) -> None:
    build_tree(tmp_path / "shared", {"h.ts": ""})
    root = build_tree(tmp_path / "set", {"a.ts": ""})
    assert glob("../shared/*.ts", str(root)) == [f"{tmp_path}/shared/h.ts"]


def test_a_glob_below_a_missing_folder_or_of_a_folder_alone_finds_nothing(
    tmp_path: Path,
) -> None:
    root = build_tree(tmp_path / "set", {"src/a.ts": ""})
    assert glob("gone/*.ts", str(root)) == []
    assert glob("src/", str(root)) == []


def test_a_folder_s_ignore_files_are_read_with_its_path_as_prefix(tmp_path: Path) -> None:
    top = build_tree(
        tmp_path / "set",
        {"sub/.gitignore": "a.md\n", "sub/.ignore": "b.md\n", "sub/.fdignore": "!c.md\nc.md\n"},
    )
    ig = Ignore()
    ig.add(str(top / "sub"), str(top), {".gitignore", ".ignore", ".fdignore", "x.md"})
    assert [ig.ignores(p, False) for p in ("sub/a.md", "sub/b.md", "sub/c.md", "a.md")] == [
        True,
        True,
        True,
        False,
    ]


def test_only_the_ignore_files_in_the_listing_are_read(tmp_path: Path) -> None:
    top = build_tree(tmp_path / "set", {".gitignore": "a.md\n", ".ignore": "b.md\n"})
    ig = Ignore()
    ig.add(str(top), str(top), {".ignore"})
    assert (ig.ignores("a.md", False), ig.ignores("b.md", False)) == (False, True)
    none = Ignore()
    none.add(str(top), str(top), {"a.md"})
    assert not none.ignores("a.md", False)


def test_an_unreadable_ignore_file_is_skipped(tmp_path: Path) -> None:
    top = build_tree(tmp_path / "set", {".gitignore": b"\xff\xfe a.md\n", ".ignore": "b.md\n"})
    ig = Ignore()
    ig.add(str(top), str(top), {".gitignore", ".ignore"})
    assert ig.ignores("b.md", False)


def test_an_upper_case_letter_in_a_class_is_a_letter() -> None:
    assert minimatch("X", "[XY]")


def test_a_glob_without_a_folder_matches_at_the_root(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "set", {"a.ts": "", "sub/b.ts": ""})
    assert glob("*.ts", str(root)) == [f"{root}/a.ts"]
